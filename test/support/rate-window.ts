/**
 * The API counts requests in fixed one-minute windows (RateLimiter). A test that counts requests up to a limit
 * and past it fails when a window edge falls between them: the count starts again and a 429 becomes a 401 (CI saw
 * it once, 2026-11-28). Such a test calls this first, so that what it counts falls in one window.
 */
export async function startOfAFreshWindow(needMs = 20_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
