/**
 * A real headless browser for the plan page: Debian's chromium (`apt-get install chromium`, what `npm test`
 * installs through scripts/ensure-chromium.sh when it may) driven by playwright-core, and the checks that a
 * screenshot shows something.
 */
import { existsSync } from 'node:fs';
import { PNG } from 'pngjs';
import { Browser, chromium, Page } from 'playwright-core';

export const CHROMIUM = process.env.FALLOW_CHROMIUM || '/usr/bin/chromium';

/**
 * Why no browser can be launched, or undefined when there is one: what scripts/ensure-chromium.sh found
 * (FALLOW_CHROMIUM_MISSING), else whether CHROMIUM exists. Tests that need the browser skip with it.
 */
export function chromiumMissing(): string | undefined {
  if (process.env.FALLOW_CHROMIUM_MISSING) return process.env.FALLOW_CHROMIUM_MISSING;
  if (!existsSync(CHROMIUM)) return `no chromium at ${CHROMIUM}: install Debian's chromium (apt-get install chromium, as root; npm test does it when it may) or set FALLOW_CHROMIUM to a Chromium or Chrome binary`;
  return undefined;
}

export async function launchChromium(): Promise<Browser> {
  const missing = chromiumMissing();
  if (missing) throw new Error(missing);
  // --no-sandbox: CI runs as root, where chromium's sandbox refuses to start.
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/** Opens a plan's page, gives it the key through its form as a person would, and waits until its charts are in. */
export async function openPlanPage(page: Page, baseUrl: string, planId: string, key: string, timeoutMs = 30_000): Promise<void> {
  await page.goto(`${baseUrl}/v1/plans/${planId}/page`);
  await page.fill('#key', key);
  await page.click('#key-form button[type=submit]');
  await page.waitForSelector('body[data-ready=true]', { timeout: timeoutMs });
}

export interface PngStats {
  width: number;
  height: number;
  /** Distinct RGB colours. */
  colours: number;
  /** Share of pixels clearly darker than the page's near-white background. */
  inked: number;
}

export function pngStats(png: Buffer): PngStats {
  const { width, height, data } = PNG.sync.read(png);
  const colours = new Set<number>();
  let inked = 0;
  for (let i = 0; i < data.length; i += 4) {
    const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
    colours.add((r << 16) | (g << 8) | b);
    if (Math.min(r, g, b) < 230) inked++;
  }
  return { width, height, colours: colours.size, inked: inked / (width * height) };
}
