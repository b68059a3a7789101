import { evaluatePlan } from '../../evaluate/evaluate';
import { Model } from '../../model/model';
import { toPlanDoc } from '../../schedule/plan-doc';
import { Schedule, better } from '../../schedule/schedule';
import { Strategy, StrategyContext, StrategyResult } from '../../contracts/strategy';
import { decodeSolution, encodeStart } from './decode';
import { RunOutcome, runHighs } from './highs-runner';
import { destructiveBound } from './destructive-bound';
import { findIncumbent } from './incumbent';
import { improveWith } from './incumbent-search';
import { MilpLayout, NO_ROOM, buildMilp } from './model-builder';
import { revenueBound } from '../../bounds/revenue';
import { compareRevenue, scoreOf } from '../../revenue/decoder';
import { revenueSearch } from '../../revenue/search';
import { SatStageLimits, satApplies, satStage } from './sat/sat-stage';

export interface ExactLimits {
  /** Above these sizes the MILP is not attempted (HiGHS in WASM would not get far in a request budget). */
  maxColumns: number;
  maxNonzeros: number;
  /** Optional clique rows stop here: past it their LP cost outweighs the tighter bound (j120 scale). */
  maxCliqueNonzeros: number;
}

export const DEFAULT_EXACT_LIMITS: ExactLimits = { maxColumns: 300_000, maxNonzeros: 300_000, maxCliqueNonzeros: 60_000 };

const NO_BOUND_STATUS = new Set([1, 2, 3, 4, 5, 8, 9, 10]);
const INFEASIBLE = 8;

/** Loading the WASM module and passing the model to HiGHS, measured at ~100 ms on small models. */
const SOLVER_STARTUP_MS = 150;

/**
 * Exact strategy: a time-indexed MILP (see model-builder.ts) solved by HiGHS on a worker thread,
 * after a heuristic schedule (the incumbent). With every job in, the makespan objective goes:
 *   1. incumbent from list schedules and the genetic algorithm (its makespan UB);
 *   2. destructive lower bounding: propagation and shaving (propagate.ts) refute makespans from the
 *      engine's bound upward, which alone proves many RCPSP-shaped instances optimal;
 *   3. when they do not meet, the local search improves the incumbent for a share of the time;
 *   4. on RCPSP-shaped models (one node, one task per stage), a SAT search (sat/sat-stage.ts: Z3 on
 *      an order encoding) for ever shorter schedules until it refutes the next one, proving optimality;
 *   5. the MILP over the horizon UB - 1 only, on the propagated windows: "infeasible" proves the
 *      incumbent optimal, a solution improves it, and the dual bound is a makespan bound.
 * Otherwise (jobs may be rejected, or revenue) the MILP covers the whole window, warm-started by the
 * incumbent. Returns the better of the MILP's solution and the incumbent.
 *
 * Under an iteration limit (maxIterations, the CLI's --iterations) every phase ends by a count instead
 * of a share of the clock: list builds and decodes in the warm start, shaving at its fixpoint, the local
 * search's moves, Z3's conflicts per query and HiGHS's nodes (maxIterations each). The budget is then
 * only a backstop: a seed gives the same plan on any machine that finishes within it.
 */
export function makeExact(limits: ExactLimits = DEFAULT_EXACT_LIMITS, name = 'exact'): Strategy {
  return {
    name,
    description: 'Time-indexed MILP (aggregated step formulation) solved by HiGHS below a heuristic schedule, after destructive bounds from propagation and, on RCPSP-shaped models, a SAT search (Z3)',
    run: (ctx) => runExact(ctx, limits),
  };
}

export const exact: Strategy = makeExact();

async function runExact(ctx: StrategyContext, limits: ExactLimits): Promise<StrategyResult> {
  const { model, rng, budget } = ctx;
  const began = Date.now();
  const total = Math.max(0, budget.deadline - began);
  const reproducible = Number.isFinite(budget.maxIterations);
  const revenue = ctx.objective === 'revenue';
  // Under an iteration limit the warm start ends by its own limits (list builds, decodes), not by the clock.
  const until = reproducible ? budget.deadline : began + Math.min(0.1 * total, 1000);
  // The revenue objective warm-starts from the revenue search (the paper's heuristics and a short
  // search over job orders); the makespan objective from quick list schedules and the genetic algorithm.
  let { schedule: incumbent, builds } = revenue
    ? { schedule: (await revenueSearch({ ...ctx, budget: budget.with({ deadline: until }), rng: rng.fork() }, lookupIn(ctx))).schedule, builds: 1 }
    : makespanIncumbent(ctx, until, reproducible);
  const incTasks = incumbent.scheduledTasks();
  let incMakespan = incumbent.makespan();
  const incRevenue = scoreOf(model, incumbent).revenue;
  const revenueUpper = revenue ? (ctx.revenueUpper ?? revenueBound(model).revenue) : Infinity;
  ctx.report(1, incTasks, incMakespan);
  const allIn = incTasks === model.nTasks;
  const base = { incumbent: { makespan: incMakespan, scheduledTasks: incTasks, revenue: incRevenue, builds, ms: Date.now() - began, lowerBound: ctx.lowerBound } };
  let satStats: Record<string, unknown> | undefined;
  const skip = (status: string, extra: Record<string, unknown> = {}): StrategyResult => ({
    schedule: incumbent,
    iterations: 1,
    stats: { milp: { status, ...extra, ...base }, ...(satStats && { sat: satStats }) },
  });
  if (revenue && incRevenue >= revenueUpper - 1e-9 * Math.max(1, Math.abs(revenueUpper))) {
    ctx.stopWhenOptimal?.requestStop();
    return { ...skip('not needed: the heuristic schedule meets the revenue bound'), optimal: true };
  }
  if (!revenue && (model.nTasks === 0 || (allIn && incMakespan <= ctx.lowerBound))) {
    if (allIn) ctx.stopWhenOptimal?.requestStop();
    return { ...skip('not needed: the heuristic schedule meets the lower bound'), optimal: allIn };
  }

  // With every job in, the MILP only looks for a schedule strictly shorter than the incumbent: the
  // horizon (and with it every time window) shrinks by one, and "infeasible" proves the incumbent optimal.
  const belowIncumbent = allIn && !revenue;
  if (budget.stopRequested()) return skip('skipped: aborted');

  // Cheap proofs first: every makespan below `lower` is refuted by propagation alone.
  let lower = belowIncumbent ? provenLower(ctx, incMakespan, reproducible) : 0;
  if (belowIncumbent) base.incumbent.lowerBound = lower; // the bound the MILP starts from, in the stats
  if (belowIncumbent && lower < incMakespan && !budget.stopRequested()) {
    // Not proven yet: the local search, which gets closer to the optimum than the genetic algorithm,
    // may close the gap from above. `lower` holds for every schedule of all jobs, so it stays valid.
    ({ schedule: incumbent, builds } = improveWith(ctx.strategy?.('ls'), ctx, { schedule: incumbent, builds }, lsDeadline(ctx, reproducible), reproducible));
    if (incumbent.makespan() < incMakespan) {
      incMakespan = incumbent.makespan();
      ctx.report(1, incTasks, incMakespan);
      Object.assign(base.incumbent, { makespan: incMakespan, builds, ms: Date.now() - began });
    }
  }
  if (belowIncumbent && lower >= incMakespan) {
    ctx.stopWhenOptimal?.requestStop();
    return { ...skip('not needed: propagation refutes every makespan below the heuristic schedule'), bound: incMakespan, optimal: true };
  }
  if (belowIncumbent && satApplies(model) && !budget.stopRequested() && (reproducible || budget.deadline - Date.now() >= SAT_MIN_MS)) {
    // RCPSP shape: the SAT search below the incumbent, which on hard instances proves far more than
    // the MILP does, gets nearly all of the time left (SAT_SHARE); the MILP starts from what it leaves.
    const sat = await satStage(ctx, incumbent, lower, satLimits(ctx, model, reproducible));
    satStats = sat.stats;
    lower = sat.lower;
    if (sat.schedule && sat.schedule.makespan() < incMakespan) {
      incumbent = sat.schedule;
      incMakespan = incumbent.makespan();
      Object.assign(base.incumbent, { makespan: incMakespan, ms: Date.now() - began, source: 'sat' });
    }
    if (lower >= incMakespan) {
      ctx.stopWhenOptimal?.requestStop();
      return { ...skip('not needed: the SAT search refutes every makespan below the best schedule'), bound: incMakespan, optimal: true };
    }
    if (budget.stopRequested()) return skip('skipped: aborted');
  }

  const buildStarted = Date.now();
  const built = buildMilp(model, {
    horizon: belowIncumbent ? incMakespan - 1 : model.T,
    weighted: revenue || !allIn,
    revenue,
    makespanLower: belowIncumbent ? lower : 0,
    shaveUntil: reproducible ? budget.deadline : Date.now() + Math.min(MAX_BUILD_SHAVE_MS, BUILD_SHAVE_SHARE * (budget.deadline - Date.now())),
    ...limits,
  });
  if (!built.ok && built.reason === NO_ROOM) {
    // The time windows alone show that no schedule ends before the incumbent (belowIncumbent only).
    ctx.stopWhenOptimal?.requestStop();
    return { ...skip('not needed: the time windows leave no room below the heuristic schedule'), bound: incMakespan, optimal: true };
  }
  if (!built.ok) {
    const tooLarge = { columns: built.columns, nonzeros: built.nonzeros };
    if (revenue) return skip(`skipped: model too large (${built.reason})`, tooLarge);
    // No MILP to run: spend the rest of the budget on the local search instead of returning early. Yield
    // first, so that a strategy racing exact on this thread (auto) runs its partner before this search.
    await new Promise((resolve) => setImmediate(resolve));
    ({ schedule: incumbent, builds } = improveWith(ctx.strategy?.('ls'), ctx, { schedule: incumbent, builds }, budget.deadline, reproducible));
    Object.assign(base.incumbent, { makespan: incumbent.makespan(), scheduledTasks: incumbent.scheduledTasks(), builds, ms: Date.now() - began });
    return skip(`skipped: model too large (${built.reason}); the local search used the budget`, tooLarge);
  }
  const { problem, layout } = built;
  const size = { variables: problem.numCols, constraints: problem.numRows, nonzeros: built.nonzeros, horizon: layout.horizon, weighted: layout.weighted, revenue };
  const start = encodeStart(model, layout, problem.numCols, incumbent);
  const buildMs = Date.now() - buildStarted;

  // Keep room after the solve for decoding and the engine's own evaluation of the plan. HiGHS checks
  // its clock only between steps and in WASM one step (a root cut round, a sub-MIP) can take a second
  // or more, so its own limit is set earlier; at the deadline it is asked to stop, and if it has not
  // stopped when the budget itself is up (less the decoding) the thread is terminated, keeping the
  // last streamed results: the solve must come back within its budget.
  const finishMs = finishMsOf(model);
  const budgetMs = (budget.deadline - budget.startedAt) / 0.97;
  const overshoot = Math.min(800, 0.06 * budgetMs);
  const timeLimit = (budget.deadline - Date.now() - finishMs - SOLVER_STARTUP_MS - overshoot) / 1000;
  if (timeLimit < 0.05) return skip('skipped: no time left for the MILP', { ...size, buildMs });
  const options: Record<string, number | string | boolean> = {
    time_limit: timeLimit,
    // The objective is integral (integer C and task weights), so a gap below 1 proves optimality;
    // the default relative gap (1e-4) would stop early on the large weighted objective.
    mip_rel_gap: 0,
    mip_abs_gap: revenue && !integralRevenues(model) ? 1e-6 : 0.999,
    random_seed: rng.int(1 << 30),
  };
  // When propagation has refuted every makespan below incumbent - 1, the MILP only decides whether
  // that one makespan is feasible: any schedule it finds is optimal, and proving infeasibility is the
  // hard part, for which HiGHS's primal heuristics (sub-MIPs taking seconds in WASM) do nothing.
  if (belowIncumbent && lower >= incMakespan - 1) options.mip_heuristic_effort = 0;
  if (reproducible) options.mip_max_nodes = Math.max(1, Math.floor(budget.maxIterations));
  const outcome = await budget.abortable((signal) =>
    runHighs(problem, {
      options,
      start,
      softStopAt: budget.deadline - finishMs,
      hardStopAt: Math.max(budget.deadline, budget.startedAt + budgetMs - finishMs),
      signal,
      stopWhenOptimal: ctx.stopWhenOptimal?.stopFlag,
      onIncumbent: (x) => {
        let tasks = 0;
        model.jobs.forEach((job, j) => (tasks += Math.round(x[layout.colY[j]]) * job.taskCount));
        ctx.report(1, tasks, Math.round(x[layout.colC]));
      },
    }),
  );

  let decodeNote = 'no solution from the solver';
  let found: Schedule | null = null;
  if (outcome.colValue) {
    found = decodeSolution(model, layout, outcome.colValue);
    decodeNote = found ? 'decoded' : 'decoding failed (rounded solution infeasible)';
    if (found && !evaluatePlan(model, toPlanDoc(model, found, 'exact')).ok) {
      found = null;
      decodeNote = 'decoded plan rejected by the evaluator';
    }
  }
  const useFound =
    found !== null &&
    (revenue ? compareRevenue(scoreOf(model, found), scoreOf(model, incumbent)) < 0 : better(found.scheduledTasks(), found.makespan(), incTasks, incMakespan));
  const best = useFound ? found! : incumbent;
  const proof: { bound?: number; revenueBound?: number; optimal: boolean } = revenue
    ? revenueProofFor(model, outcome, best, revenueUpper)
    : boundFor(model, layout, outcome, best, belowIncumbent ? incMakespan : Infinity, lower);
  if (proof.optimal) ctx.stopWhenOptimal?.requestStop();
  return {
    schedule: best,
    iterations: Math.max(1, outcome.nodes),
    bound: proof.bound,
    revenueBound: proof.revenueBound,
    optimal: proof.optimal,
    stats: {
      milp: {
        status: outcome.status,
        ...size,
        nodes: outcome.nodes,
        mipGap: outcome.gap,
        dualBound: outcome.dualBound,
        objective: outcome.objective,
        timeMs: outcome.wallMs,
        solverMs: Math.round(outcome.solverSeconds * 1000),
        buildMs,
        warmStart: start !== null,
        solution: decodeNote,
        source: useFound ? 'milp' : 'incumbent',
        ...base,
      },
      ...(satStats && { sat: satStats }),
    },
  };
}

/** Shares of the remaining time for shaving (propagate.ts): the destructive bound, then the MILP's windows. */
const BOUND_SHAVE_SHARE = 0.35;
/** With the SAT search to follow, which refutes far more per second, shaving only takes the quick proofs. */
const BOUND_SHAVE_SHARE_BEFORE_SAT = 0.05;
const BUILD_SHAVE_SHARE = 0.1;
const MAX_BUILD_SHAVE_MS = 1000;
/** Share of the time left after the destructive bound for the local search, when the bound does not meet the incumbent. */
const LS_SHARE = 0.25;
/** The search is synchronous (see incumbent-search.ts), so an abort is only seen after it: kept short. */
const MAX_LS_MS = 1000;

/**
 * Destructive lower bound below the incumbent: plain propagation first (milliseconds per makespan),
 * then with shaving from there on, within its share of the time (the whole budget when reproducible,
 * where only the deadline may cut it short).
 */
function provenLower(ctx: StrategyContext, incMakespan: number, reproducible: boolean): number {
  const stop = ctx.budget.deadlineCheck();
  const quick = destructiveBound(ctx.model, ctx.lowerBound, incMakespan - 1, stop);
  const share = satApplies(ctx.model) ? BOUND_SHAVE_SHARE_BEFORE_SAT : BOUND_SHAVE_SHARE;
  const { deadline } = ctx.budget;
  const until = reproducible ? deadline : Date.now() + share * (deadline - Date.now());
  return destructiveBound(ctx.model, quick, incMakespan - 1, () => stop() || Date.now() >= until, until);
}

/**
 * Share of the time left for the SAT search (and the shaving of its windows) when it applies; the MILP
 * gets the rest. On the six j30 instances the SAT search left open at 0.75, 0.95 proved four: where it
 * fails, HiGHS in the last second does not get past its root node either.
 */
const SAT_SHARE = 0.95;
const SAT_SHAVE_SHARE = 0.05;
/**
 * Below this much time left the SAT stage is not started: loading Z3 alone takes 0.2-0.5 s, and in the
 * benchmark at 1 s (auto on j30) it never got to a first answer; the MILP proves more there. Not under an
 * iteration limit, where whether it runs must not depend on the clock.
 */
const SAT_MIN_MS = 1500;
/** Z3's timeout overshoots by 0.2-0.3 s on j30: its thread is terminated this long after its own limit. */
const SAT_GRACE_MS = 400;

/**
 * The SAT stage's limits: shares of the time left, or under an iteration limit (reproducible) the whole
 * budget as a backstop and at most maxIterations conflicts per Z3 query, so that where it stops depends
 * on the work done and not on how much CPU it got.
 */
function satLimits(ctx: StrategyContext, model: Model, reproducible: boolean): SatStageLimits {
  const { deadline, maxIterations } = ctx.budget;
  const now = Date.now();
  const left = Math.max(0, deadline - now - finishMsOf(model));
  if (reproducible) return { until: now + left, hardStopAt: deadline, shaveUntil: deadline, maxConflicts: Math.max(1, Math.floor(maxIterations)) };
  const until = now + SAT_SHARE * left;
  return { until, hardStopAt: Math.min(until + SAT_GRACE_MS, deadline), shaveUntil: now + SAT_SHAVE_SHARE * left };
}

/** Share of the warm-start phase for the quick list schedules; the genetic algorithm gets the rest. */
const LIST_SHARE = 0.25;

/**
 * The makespan warm start: quick list schedules, then the genetic algorithm (about 0.7% above the
 * optimum on j30 in a second) for the rest of the phase. Its makespan becomes the MILP's horizon.
 */
function makespanIncumbent(ctx: StrategyContext, until: number, reproducible: boolean): { schedule: Schedule; builds: number } {
  const quick = findIncumbent(ctx.model, ctx.rng, {
    until: Date.now() + LIST_SHARE * Math.max(0, until - Date.now()),
    maxBuilds: reproducible ? 50 : Infinity,
    lowerBound: ctx.lowerBound,
    stop: ctx.budget.deadlineCheck(),
  });
  const seeded = improveWith(ctx.strategy?.('ga'), ctx, quick, until, reproducible);
  if (seeded.schedule.scheduledTasks() === ctx.model.nTasks) return seeded;
  // Not every job fits: the MILP warm-starts from this schedule and rarely finds a better set of jobs
  // itself, so the local search (its set search, job-set phase) gets a share first, as below the bound.
  return improveWith(ctx.strategy?.('ls'), ctx, seeded, lsDeadline(ctx, reproducible), reproducible);
}

/** Until when the local search may improve the incumbent: LS_SHARE of the time left, at most MAX_LS_MS. */
function lsDeadline(ctx: StrategyContext, reproducible: boolean): number {
  const { deadline } = ctx.budget;
  return reproducible ? deadline : Date.now() + Math.min(MAX_LS_MS, LS_SHARE * (deadline - Date.now()));
}

/** Time kept after a solver for decoding and the engine's own evaluation of the plan. */
function finishMsOf(model: Model): number {
  return 20 + model.nTasks / 500 + (model.K * model.T * model.M) / 50_000;
}

/** The other strategies, as solve() gives them (none when the context has no lookup). */
const lookupIn = (ctx: StrategyContext) => (name: string) => ctx.strategy?.(name);

function integralRevenues(model: Model): boolean {
  return model.jobs.every((j) => Number.isInteger(j.revenueOnTime) && Number.isInteger(j.revenueLate));
}

/**
 * Revenue objective: HiGHS minimises -revenue, so its dual bound D gives revenue <= -D for every plan.
 * The best plan is optimal when its revenue reaches that bound.
 */
function revenueProofFor(model: Model, o: RunOutcome, best: Schedule, upper: number): { bound?: number; revenueBound?: number; optimal: boolean } {
  const usable = o.dualBound !== null && !NO_BOUND_STATUS.has(o.modelStatus);
  const earned = scoreOf(model, best).revenue;
  const bound = usable ? Math.min(upper, -o.dualBound!) : upper;
  const tol = 1e-6 * Math.max(1, Math.abs(bound));
  return { revenueBound: Math.max(earned, bound), optimal: earned >= bound - tol };
}

/**
 * Makespan bound and optimality from HiGHS's dual bound D on min C - W * tasks (W = 0 when all jobs are
 * in). Every feasible schedule with the best schedule's task count N satisfies C - W*N >= D, so
 * ceil(D + W*N) bounds the makespan of any schedule of that accepted set. The task count is proven
 * maximal when every schedule with more tasks (objective at most H - W*(N+1)) would lie below D.
 */
function boundFor(model: Model, layout: MilpLayout, o: RunOutcome, best: Schedule, excluded: number, lower: number): { bound?: number; optimal: boolean } {
  // The MILP covered only schedules ending before `excluded` (the incumbent's makespan): none exists
  // when it is infeasible, and every other schedule ends at `excluded` or later, so its dual bound
  // holds for all schedules only up to `excluded`.
  if (o.modelStatus === INFEASIBLE && Number.isFinite(excluded)) return { bound: excluded, optimal: best.makespan() <= excluded };
  // Errors and other infeasible/unbounded verdicts carry no bound (with the incumbent inside the
  // horizon, infeasible would mean numerical trouble). A killed run keeps the last bound it reported.
  const usable = o.dualBound !== null && !NO_BOUND_STATUS.has(o.modelStatus);
  const makespan = best.makespan();
  // `lower` (destructive bounding, every job in) holds only for the full set of jobs.
  const known = best.scheduledTasks() === model.nTasks ? Math.min(lower, makespan) : 0;
  if (!usable) return known > 0 ? { bound: known, optimal: known >= makespan } : { optimal: false };
  const D = o.dualBound!;
  const tol = 1e-6 * Math.max(1, Math.abs(D));
  const N = best.scheduledTasks();
  const W = layout.weighted ? layout.taskWeight : 0;
  const bound = Math.max(known, Math.min(makespan, excluded, Math.max(0, Math.ceil(D + W * N - tol))));
  const tasksProven = !layout.weighted ? N === model.nTasks : D > layout.horizon - W * (N + 1) + tol;
  return { bound, optimal: tasksProven && bound >= makespan };
}
