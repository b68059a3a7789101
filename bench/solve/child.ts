/**
 * One solve of the benchmark: load the instance, run solve(), write the plan, check it with our
 * evaluator. Used in-process (`--in-process`) or as a child process (the default), one per solve, so a
 * strategy that crashes, hangs or runs out of memory only loses its own run.
 *
 *   node dist/bench/solve/child.js '{"file": "...", "strategy": "ls", "budgetMs": 1000, "seed": 1, "planFile": "..."}'
 * prints one line `@@fallow-bench@@ {SolveOutcome}` on stdout.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { loadInstance } from '../../src/engine/model/model';
import { solve } from '../../src/engine/solve';
import { Reference, SolveOutcome } from './types';

export const RESULT_MARK = '@@fallow-bench@@ ';

export interface SolveJob {
  file: string;
  strategy: string;
  budgetMs: number;
  seed: number;
  planFile: string;
}

export function readReference(doc: unknown): Reference | null {
  const ref = (doc as { reference?: { makespanSlots?: unknown } } | null)?.reference?.makespanSlots;
  if (!ref || typeof ref !== 'object') return null;
  const r = ref as Record<string, unknown>;
  const out: Reference = {};
  for (const k of ['optimum', 'upperBound', 'lowerBound'] as const) if (typeof r[k] === 'number') out[k] = r[k] as number;
  return Object.keys(out).length ? out : null;
}

export async function solveOne(job: SolveJob): Promise<SolveOutcome> {
  let raw: unknown;
  let reference: Reference | null = null;
  let totalTasks: number | undefined;
  try {
    raw = JSON.parse(readFileSync(job.file, 'utf8'));
    reference = readReference(raw);
    const t0 = performance.now();
    const model = loadInstance(raw);
    const loadMs = performance.now() - t0;
    totalTasks = model.nTasks;
    const t1 = performance.now();
    const plan = await solve(model, { strategy: job.strategy, timeBudgetMs: job.budgetMs, seed: job.seed });
    const elapsedMs = performance.now() - t1;
    const text = JSON.stringify(plan);
    mkdirSync(path.dirname(job.planFile), { recursive: true });
    writeFileSync(job.planFile, text);
    // Check the plan as written (a fresh parse: nothing the strategy computed is trusted).
    const check = evaluatePlan(model, JSON.parse(text));
    const stats = (plan.stats ?? {}) as Record<string, any>;
    const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : null);
    return {
      ok: true,
      totalTasks,
      scheduledTasks: plan.objective.scheduledTasks,
      makespan: plan.objective.makespanSlots,
      bound: plan.bound?.makespanSlots ?? null,
      gap: num(plan.gap),
      optimal: plan.optimal === true,
      elapsedMs: Math.round(elapsedMs),
      planElapsedMs: num(stats.elapsedMs),
      loadMs: Math.round(loadMs * 10) / 10,
      iterations: num(stats.iterations),
      criticalPath: num(stats.bounds?.criticalPath),
      movesPerSecond: num(stats.movesPerSecond),
      feasibleOurs: check.ok,
      ourViolations: check.violations.slice(0, 5),
      planFile: job.planFile,
      reference,
    };
  } catch (e) {
    const err = e as Error & { violations?: string[] };
    return {
      ok: false,
      error: (err?.message ?? String(e)).slice(0, 500),
      errorKind: err?.constructor?.name ?? 'Error',
      totalTasks,
      // solve() throws InfeasiblePlanError when our evaluator rejects a strategy's plan.
      feasibleOurs: err?.constructor?.name === 'InfeasiblePlanError' ? false : undefined,
      ourViolations: err?.violations?.slice(0, 5),
      reference,
    };
  }
}

if (require.main === module) {
  let job: SolveJob;
  try {
    job = JSON.parse(process.argv[2]);
  } catch {
    process.stderr.write('usage: node dist/bench/solve/child.js JSON_JOB\n');
    process.exit(2);
  }
  solveOne(job).then(
    (out) => {
      // Exit once written: do not wait for stray timers or worker threads a strategy may have left behind.
      process.stdout.write(RESULT_MARK + JSON.stringify(out) + '\n', () => process.exit(0));
    },
    (e) => {
      process.stdout.write(RESULT_MARK + JSON.stringify({ ok: false, error: String(e) }) + '\n', () => process.exit(0));
    },
  );
}
