/**
 * Limits for tests that must not depend on how much CPU they get (the machine may be busy): searches end
 * by a count of work, and the clock is only a backstop against a hang, far above what a loaded machine needs.
 */
import { RunOptions } from '../../src/engine/strategies/exact/highs-runner';

export const BACKSTOP_MS = 300_000;

/**
 * solve() options that make a strategy end by its iteration limit (exact: HiGHS nodes and Z3 conflicts per
 * query, at most this many each; the warm start and the local search by their own counts), not by its budget.
 */
export const BY_WORK = { maxIterations: 100_000, timeBudgetMs: BACKSTOP_MS } as const;

/** runHighs limits for a run to the end: its time limit and the thread's stops only at the backstop. */
export function highsToTheEnd(options: Record<string, number | string | boolean> = {}): RunOptions {
  const now = Date.now();
  return { options: { time_limit: BACKSTOP_MS / 1000, ...options }, start: null, softStopAt: now + BACKSTOP_MS, hardStopAt: now + BACKSTOP_MS + 1000 };
}
