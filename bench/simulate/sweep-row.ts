/**
 * What the sweep records (bench/results/simulate-sweep-*.json): one row per run and the file around them. Below
 * both the sweep (sweep.ts, which writes them) and its report (sweep-report.ts, which reads them).
 */
import type { RunEvidence } from './evidence';
import type { RunOf } from './experiment';

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
}

/** A sweep's results file. */
export interface SweepResult {
  date: string;
  command: string;
  elapsedSeconds: number;
  setup: { approaches: string[]; margins: number[]; seeds: number[]; mapOutputRatio: Record<number, number>; budgetMs: number; workers: number };
  rows: SweepRow[];
}
