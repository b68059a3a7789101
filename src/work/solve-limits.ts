/** How long after its start a solve's thread is terminated: its budget, then as long again (at least a minute) to answer. */
export function hardStopAfterMs(budgetMs: number): number {
  return budgetMs + graceMs(budgetMs);
}

const graceMs = (budgetMs: number) => Math.max(60_000, budgetMs);

/** The solve's deadline as the kernel enforces it (the thread is terminated then and the solve fails with this reason). */
export function solveDeadline(budgetMs: number): { ms: number; why: string } {
  return { ms: hardStopAfterMs(budgetMs), why: `its budget of ${budgetMs} ms and ${graceMs(budgetMs) / 1000} s to answer with its best plan` };
}
