/**
 * Shared types and helpers of the benchmark harness (see bench/README.md).
 * Nothing here is part of the service: the harness only uses the engine's public entry points.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

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

export interface MachineInfo {
  cpu: string;
  cores: number;
  memGB: number;
  node: string;
  os: string;
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

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model?.trim() ?? 'unknown',
    cores: cpus.length,
    memGB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

/** The repository root: the nearest directory above this file holding package.json. */
export function repoRoot(): string {
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    dir = path.dirname(dir);
  }
  return process.cwd();
}

export function sharedDir(override?: string): string {
  return path.resolve(override ?? process.env.FALLOW_SHARED ?? path.join(repoRoot(), '..', 'shared'));
}

/**
 * A benchmark that finds nothing to run must not pass for one that ran (issue 26: `npm run bench` in a
 * clone without ../shared exited 0): say why on stderr and answer exit code 1.
 */
export function nothingToRun(entry: string, why: string): number {
  process.stderr.write(`${entry}: nothing to run: ${why}\n`);
  return 1;
}

/** Cache for generated instances and written plans: outside git (.tmp/ is ignored). */
export function cacheDir(override?: string): string {
  return path.resolve(override ?? process.env.FALLOW_BENCH_CACHE ?? path.join(repoRoot(), '.tmp', 'bench'));
}

export function resultsDir(): string {
  return path.join(repoRoot(), 'bench', 'results');
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

export function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
}

export function mean(xs: number[]): number | null {
  return xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length;
}

export function pct(x: number, of: number): number {
  return of > 0 ? (100 * x) / of : 0;
}

export function timestamp(d = new Date()): string {
  return d.toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
}

/** Lexicographic objective: more scheduled tasks first, then a smaller makespan (FORMAT.md). */
export function betterThan(a: { scheduledTasks: number | null; makespan: number | null }, b: { scheduledTasks: number | null; makespan: number | null }): boolean {
  const at = a.scheduledTasks ?? -1;
  const bt = b.scheduledTasks ?? -1;
  if (at !== bt) return at > bt;
  return (a.makespan ?? Infinity) < (b.makespan ?? Infinity);
}

/** Replaces a generated section (<!-- name:start --> ... <!-- name:end -->) of a markdown file, keeping the hand-written discussion around it. */
export function writeResultsSection(file: string, md: string, name: string): void {
  const START = `<!-- ${name}:start -->`;
  const END = `<!-- ${name}:end -->`;
  const text = existsSync(file) ? readFileSync(file, 'utf8') : `# Simulation benchmark\n`;
  const a = text.indexOf(START);
  const b = text.indexOf(END);
  const next = a >= 0 && b > a ? text.slice(0, a + START.length) + '\n' + md + '\n' + text.slice(b) : `${text}\n${START}\n${md}\n${END}\n`;
  writeFileSync(file, next);
}
