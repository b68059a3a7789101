import { evaluatePlan } from '../../../evaluate/evaluate';
import { Model } from '../../../model/model';
import { toPlanDoc } from '../../../schedule/plan-doc';
import { Schedule } from '../../../schedule/schedule';
import { StrategyContext } from '../../../contracts/strategy';
import { propagate, propagationApplies } from '../propagate';
import { computeWindows } from '../windows';
import { encodeSatProblem } from './encoding';
import { runSat } from './sat-runner';

export interface SatStageResult {
  /** The shortest schedule the SAT search found, when shorter than the incumbent. */
  schedule: Schedule | null;
  /** A makespan lower bound for every schedule of all jobs (at least the one passed in). */
  lower: number;
  stats: Record<string, unknown>;
}

export interface SatStageLimits {
  /** Absolute ms: the SAT search's own time limit, and when its thread is terminated if still busy. */
  until: number;
  hardStopAt: number;
  /** Absolute ms: shaving of the windows the formula is built on (propagate.ts). */
  shaveUntil: number;
  /** Z3's conflict limit per query, under an iteration limit (see SatRequest). */
  maxConflicts?: number;
}

/** Whether the SAT stage can run on the model (the RCPSP shape, as for propagation). */
export const satApplies = propagationApplies;

/**
 * SAT search below the incumbent, for RCPSP-shaped models: Z3 (z3-worker.ts) looks for schedules
 * ending before the incumbent, each time one slot shorter, until it proves that none exists. Where
 * HiGHS rarely leaves its root node on hard j30 instances, this refutes "makespan <= optimum - 1"
 * in about a second: conflict learning does what the LP relaxation cannot.
 *
 * Every schedule it returns is checked by the evaluator; if one ever fails, the search's verdicts
 * are not trusted either (the formula would be wrong), and only the incumbent and `lower` stand.
 */
export async function satStage(ctx: StrategyContext, incumbent: Schedule, lower: number, limits: SatStageLimits): Promise<SatStageResult> {
  const { model } = ctx;
  const known = incumbent.makespan();
  const began = Date.now();
  const w = computeWindows(model, known - 1);
  if (!propagate(model, w, limits.shaveUntil)) return { schedule: null, lower: known, stats: { status: 'refuted by propagation', ms: Date.now() - began } };
  const problem = encodeSatProblem(model, w);
  if (!problem) return { schedule: null, lower, stats: { status: 'not applicable (demands not integral at 6 decimals)' } };
  let best: Schedule | null = null;
  let rejected = false;
  const outcome = await ctx.budget.abortable((signal) =>
    runSat(problem, {
      until: limits.until,
      hardStopAt: limits.hardStopAt,
      signal,
      knownMakespan: known,
      stopWhenOptimal: ctx.stopWhenOptimal?.stopFlag,
      maxConflicts: limits.maxConflicts,
      onSchedule: (starts, makespan) => {
        const s = rcpspSchedule(model, starts);
        if (!evaluatePlan(model, toPlanDoc(model, s, 'exact')).ok || s.makespan() !== makespan) rejected = true;
        else {
          best = s;
          ctx.report(1, model.nTasks, makespan);
        }
      },
    }),
  );
  const stats = {
    status: rejected ? 'rejected: a schedule failed the evaluator' : outcome.status,
    detail: outcome.detail,
    variables: outcome.variables,
    rows: outcome.rows,
    readyMs: outcome.readyMs,
    timeMs: Date.now() - began,
    found: outcome.best?.makespan ?? null,
    refuted: outcome.refuted,
  };
  if (rejected) return { schedule: null, lower, stats };
  const proven = outcome.status === 'unsat' && outcome.refuted !== null ? Math.max(lower, outcome.refuted + 1) : lower;
  return { schedule: best, lower: proven, stats };
}

/** All jobs in, one task per stage on node 0 (the RCPSP shape), at the given starts. */
export function rcpspSchedule(model: Model, starts: number[]): Schedule {
  const s = new Schedule(model);
  s.accepted.fill(1);
  model.stages.forEach((stage, g) => {
    s.node[stage.firstTask] = 0;
    s.start[stage.firstTask] = starts[g];
  });
  return s;
}
