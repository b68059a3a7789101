/** How long after its start a solve's thread is terminated: its budget, then as long again (at least a minute) to answer. */
export function hardStopAfterMs(budgetMs: number): number {
  return budgetMs + Math.max(60_000, budgetMs);
}
