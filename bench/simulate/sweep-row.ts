/**
 * What the sweep records (bench/results/simulate-sweep-*.json): one row per run and the file around them. Below
 * both the sweep (sweep.ts, which writes them) and its report (sweep-report.ts, which reads them).
 */
import type { MachineInfo } from '../lib/machine';
import type { RunEvidence } from './evidence';
import type { RunOf } from './experiment';

/** A plan's own estimate beside its replay (issue 38): what the plan said, and the replay without forecast error. */
export interface PlannedRun {
  /**
   * The plan's makespan (plan.objective.makespanSlots x slotSeconds) less the job's release: the plan's end of
   * its last task on the same clock as computeSeconds (release to last task, no staging: the plan does not
   * schedule the staging, which the simulator adds before the window's clock starts).
   */
  seconds: number;
  /** The plan's stats.transfers: priced, ignored, priced-after-search, nothing-to-move (absent: no network fields). */
  transfers: string | null;
  /** The same plan replayed with the actual load equal to the forecast it was made on: time on the cluster (null: unfinished). */
  onForecastSeconds: number | null;
  onForecastRelaunchedTaskPct: number;
}

export interface SweepRow extends RunOf {
  finished: boolean;
  executionSeconds: number | null;
  computeSeconds: number | null;
  stagingSeconds: number;
  relaunchedTaskPct: number;
  remoteTaskPct: number;
  relaunches: number;
  stalledTasks: number;
  events: number;
  simMs: number;
  solveMs: number | null;
  evidence: RunEvidence;
  /** Approaches with a plan that accepted the job (sal-*, cuckoo-plan); absent for policies and in results before 2026-11-28. */
  planned?: PlannedRun;
}

/** A sweep's results file. */
export interface SweepResult {
  date: string;
  command: string;
  /** Where it ran (results before 2026-11-28 have none). */
  machine?: MachineInfo;
  elapsedSeconds: number;
  setup: { approaches: string[]; margins: number[]; seeds: number[]; mapOutputRatio: Record<number, number>; budgetMs: number; workers: number };
  rows: SweepRow[];
}
