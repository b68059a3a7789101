/**
 * The solve benchmark's types (`npm run bench`, bench/run.ts): suites, instances, one solve's outcome, the rows
 * of bench/results/*.json and their ordering. Nothing here is part of the service: the benchmark only uses the
 * engine's public entry points.
 */
import type { MachineInfo } from '../lib/machine';

export const RESULTS_FORMAT = 'fallow.bench/v1';

export type SuiteName = 'shared' | 'ephemeral' | 'j30' | 'j120' | 'measure';
export const RUN_SUITES: SuiteName[] = ['shared', 'ephemeral', 'j30', 'j120'];
export const ALL_SUITES: SuiteName[] = [...RUN_SUITES, 'measure'];

/** Reference values an instance carries (`reference.makespanSlots` of psplib-to-instance.py). */
export interface Reference {
  optimum?: number;
  upperBound?: number;
  lowerBound?: number;
}

/** One benchmark instance: a file on disk plus what the report needs to know about it. */
export interface BenchInstance {
  suite: SuiteName;
  /** Short stable name used in the results (file name without .json). */
  name: string;
  file: string;
  /** How the file was obtained (shared file, generator command line, conversion). */
  origin: string;
}

/** What a child (or an in-process run) reports about one solve. */
export interface SolveOutcome {
  ok: boolean;
  error?: string;
  /** Error class name (InfeasiblePlanError means our evaluator rejected the plan inside solve()). */
  errorKind?: string;
  totalTasks?: number;
  scheduledTasks?: number;
  makespan?: number;
  bound?: number | null;
  gap?: number | null;
  optimal?: boolean;
  /** Wall time around solve() (ms), measured by the harness. */
  elapsedMs?: number;
  /** plan.stats.elapsedMs as reported by the engine. */
  planElapsedMs?: number | null;
  loadMs?: number;
  iterations?: number | null;
  criticalPath?: number | null;
  movesPerSecond?: number | null;
  /** evaluatePlan(model, plan).ok on the plan as written to disk. */
  feasibleOurs?: boolean;
  ourViolations?: string[];
  planFile?: string;
  reference?: Reference | null;
}

/** One row of a results file. */
export interface RunRecord {
  suite: SuiteName;
  instance: string;
  file: string;
  strategy: string;
  /** "main": the suite's budget for this strategy; "ref": the long "best of all" reference run. */
  kind: 'main' | 'ref';
  budgetMs: number;
  seed: number;
  ok: boolean;
  error: string | null;
  totalTasks: number | null;
  scheduledTasks: number | null;
  makespan: number | null;
  bound: number | null;
  gapPct: number | null;
  optimal: boolean | null;
  reference: Reference | null;
  /** Known optimum, else best-known upper bound, from instance.reference. */
  known: number | null;
  knownIsOptimum: boolean;
  devPct: number | null;
  criticalPath: number | null;
  devCpPct: number | null;
  elapsedMs: number | null;
  planElapsedMs: number | null;
  iterations: number | null;
  movesPerSecond: number | null;
  feasibleOurs: boolean | null;
  /** null when check-plan.py could not be run. */
  feasibleCheckPlan: boolean | null;
  checkPlanErrors: string[];
  planFile: string | null;
  finishedAt: string;
}

export interface Measurement {
  name: string;
  value: number | null;
  unit: string;
  detail: string;
  samples?: number[];
}


export interface ResultsFile {
  format: typeof RESULTS_FORMAT;
  startedAt: string;
  finishedAt: string | null;
  machine: MachineInfo;
  argv: string[];
  options: Record<string, unknown>;
  strategies: string[];
  runs: RunRecord[];
  measurements: Measurement[];
  skipped: string[];
  notes: string[];
}

/** Default budget of a main run: j30 exact 10 s, others 1 s; j120 5 s; shared / ephemeral exact 60 s, others 10 s. */
export function defaultBudgetMs(suite: SuiteName, strategy: string): number {
  if (suite === 'j30') return strategy === 'exact' ? 10000 : 1000;
  if (suite === 'j120') return 5000;
  return strategy === 'exact' ? 60000 : 10000;
}




/** j301_10 -> [30, 1, 10]: PSPLIB files sorted by set, parameter group, then instance number. */
export function naturalCompare(a: string, b: string): number {
  const pa = a.match(/\d+|\D+/g) ?? [];
  const pb = b.match(/\d+|\D+/g) ?? [];
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === y) continue;
    const nx = /^\d/.test(x);
    const ny = /^\d/.test(y);
    if (nx && ny) return Number(x) - Number(y);
    return x < y ? -1 : 1;
  }
  return pa.length - pb.length;
}





/** Lexicographic objective: more scheduled tasks first, then a smaller makespan (FORMAT.md). */
export function betterThan(a: { scheduledTasks: number | null; makespan: number | null }, b: { scheduledTasks: number | null; makespan: number | null }): boolean {
  const at = a.scheduledTasks ?? -1;
  const bt = b.scheduledTasks ?? -1;
  if (at !== bt) return at > bt;
  return (a.makespan ?? Infinity) < (b.makespan ?? Infinity);
}
