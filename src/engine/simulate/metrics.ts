import type { Decision } from '../posum/portfolio';
import type { RunReport } from './run-report';

export { jobRevenue, median, pct, summarise } from './run-report';
export type { JobRun, RunReport } from './run-report';

/**
 * A simulation's report as the entry points (index.ts) return it: the kernel's (RunReport, run-report.ts) and
 * what a policy run adds. It names POSUM's decisions, so it belongs with the entry points, not in the kernel:
 * no kernel file imports it.
 */
export interface SimReport extends RunReport {
  /** Policies: F_c (Eq. 5) of the score against (0, 0, 0) with the run's alpha, beta, gamma. */
  fc?: number;
  /** Policies: the provisioning policy that leased nodes (posum: its members'), null for none. */
  provisioning?: string | null;
  /** POSUM: every decision (time, each member's score and distance to the ideal point, the choice). */
  decisions?: Decision[];
}
