import { makespanBound } from './bounds/makespan';
import { revenueBound } from './bounds/revenue';
import { evaluatePlan } from './evaluate/evaluate';
import { explainRejections, RejectionReason } from './evaluate/rejections';
import { hasNetworkFields, ignoringTransfers, Model } from './model/model';
import { assignmentEnds, toPlanDoc } from './schedule/plan-doc';
import { PlanDoc } from './model/types';
import { matchBlocks } from './placement/match-blocks';
import { placeChunks } from './placement/placement';
import { placeReducesOverLinks } from './placement/shuffle-aware';
import { priceByStartOrder } from './lists/price-schedule';
import { Random } from './random';
import { previousOf } from './replan/previous';
import { Mended, mendPrevious, replanSchedule, ReplanStats } from './replan/replan';
import { residualOf } from './replan/residual';
import { Schedule } from './schedule/schedule';
import { scheduleRevenue } from './schedule/revenue';
import { getStrategy, lookupStrategy } from './strategies';
import { Budget } from './budget/budget';
import { Progress, SolveOptions, StrategyContext, StrategyResult } from './contracts/strategy';

/** Raised when a strategy produced a plan the evaluator rejects: always a bug in the engine. */
export class InfeasiblePlanError extends Error {
  constructor(
    readonly strategy: string,
    readonly violations: string[],
  ) {
    super(`strategy "${strategy}" produced an infeasible plan: ${violations.slice(0, 5).join('; ')}`);
  }
}

/** A solve's plan with what the engine's one evaluation of it found, so callers need not evaluate it again. */
export interface SolveOutcome {
  plan: PlanDoc;
  /** The evaluation's KPIs (evaluatePlan(model, plan).kpis), per-job outcomes (`jobs`) included. */
  kpis: Record<string, unknown>;
  /** Why each rejected job is out (explainRejections). */
  rejections: RejectionReason[];
  /** End slot of each assignment, in plan.assignments order: start + its stage's duration on its node. */
  ends: number[];
}

/**
 * The engine's one entry point: runs a strategy within its budget and returns a checked plan with its
 * objective, placement, lower bound and gap. Every plan passes the evaluator before it leaves.
 */
export async function solve(model: Model, options: SolveOptions = {}): Promise<PlanDoc> {
  return (await solveWithOutcome(model, options)).plan;
}

/** solve(), answering also with the KPIs of its one evaluation of the plan, the rejection reasons and the assignments' ends. */
export async function solveWithOutcome(instanceModel: Model, options: SolveOptions = {}): Promise<SolveOutcome> {
  // Transfers are priced whenever the instance says anything about moving data, unless the caller opts out.
  const ignored = options.transfers === 'ignored' && instanceModel.pricesTransfers;
  const model = ignored ? ignoringTransfers(instanceModel) : instanceModel;
  const name = options.strategy ?? 'auto';
  const strategy = getStrategy(name);
  const budget = Budget.start(options);
  const startedAt = budget.startedAt;
  const seed = options.seed ?? 1;
  // Re-planning (FORMAT.md, Frozen assignments; replan/): the strategy searches what is not frozen, as an
  // instance of its own; its plan is decoded again around the frozen tasks and weighed against the previous plan.
  const previous = options.previous !== undefined ? previousOf(model, options.previous) : null;
  const residual = model.frozen ? residualOf(model) : null;
  const searchModel = model.frozen ? residual?.model ?? null : model;
  // The previous plan mended comes first: a feasible plan at once, and what one decode costs here.
  const mendStart = Date.now();
  const mended: Mended[] = previous ? mendPrevious(model, previous) : [];
  const replanReserveMs = previous || model.frozen ? replanFinishingMs(model, previous !== null, Date.now() - mendStart) : 0;
  const fullBound = makespanBound(searchModel ?? model);
  let lastReport = 0;
  const objective = options.objective ?? 'tasks-then-makespan';
  const revenueUpper = objective === 'revenue' ? revenueBound(model) : null;
  const ctx: StrategyContext = {
    model: searchModel ?? model,
    objective,
    rng: new Random(seed),
    // Leave room for bounds, placement and the final evaluation inside the budget.
    // and, re-planning, for the decodes after the search (replan/replan.ts).
    budget: budget.with({ deadline: startedAt + Math.max(1, budget.timeBudgetMs * 0.97 - finishingCostMs(model) - replanReserveMs) }),
    episodes: options.episodes,
    lowerBound: fullBound.makespanSlots,
    revenueUpper: revenueUpper?.revenue,
    strategy: lookupStrategy,
    scoreWeights: options.scoreWeights,
    report(iterations, scheduledTasks, makespanSlots) {
      if (!options.onProgress) return;
      const now = Date.now();
      if (now - lastReport < 50 && iterations > 1) return; // throttle: at most ~20 reports a second
      lastReport = now;
      options.onProgress(progressOf(model, name, now - startedAt, iterations, scheduledTasks, makespanSlots, fullBound.makespanSlots, 'searching'));
    },
  };
  // A first report before the strategy runs: the bound is known, nothing is scheduled yet.
  options.onProgress?.(progressOf(model, name, Date.now() - startedAt, 0, 0, 0, fullBound.makespanSlots, 'searching'));
  // Everything frozen: nothing to search; a re-plan whose budget went on mending the previous plan: no time to.
  const noSearch = !searchModel || (mended.length > 0 && Date.now() >= ctx.budget.deadline);
  const result: StrategyResult = noSearch ? { schedule: new Schedule(model), iterations: 0 } : await strategy.run(ctx);
  options.onProgress?.(progressOf(model, name, Date.now() - startedAt, result.iterations, result.schedule.scheduledTasks(), result.schedule.makespan(), fullBound.makespanSlots, 'finishing'));
  // A strategy that searched with compute alone gets its order planned again with every fetch priced
  // (lists/price-schedule.ts); what it proved is then of another schedule.
  const retimed = model.pricesTransfers && !result.schedule.fetch;
  const replanning = model.frozen !== null || previous !== null;
  let schedule: Schedule;
  let replan: ReplanStats | null = null;
  if (replanning) {
    // Around frozen tasks the decode prices what the model prices; without any, a compute-alone plan is retimed first.
    const searched = noSearch && mended.length > 0 ? null : !model.frozen && retimed ? priceByStartOrder(model, result.schedule) : result.schedule;
    ({ schedule, stats: replan } = replanSchedule(model, searched, residual, previous, mended, objective));
  } else schedule = retimed ? priceByStartOrder(model, result.schedule) : result.schedule;
  // Where blocks already live, deal each stage's tasks to its slots so that most read locally (same ends);
  // a priced schedule chose its tasks' blocks as it placed them; a re-plan keeps its tasks' names.
  if (!replanning && !schedule.fetch && !result.placement && model.stages.some((s) => s.blocks)) matchBlocks(model, schedule);
  // The reduces placed again where their shuffle arrives first; what a strategy proved is then of another
  // schedule. A priced schedule already placed every reduce by its shuffle: nothing to do then; a re-plan
  // moves no task the search did not (frozen ones least of all).
  const movedReduces = !options.shuffleAware ? null : schedule.fetch || replanning ? 0 : placeReducesOverLinks(model, schedule);
  const proven = result.optimal === true && !movedReduces && !retimed && !replanning;
  const shuffleAware =
    movedReduces === null
      ? null
      : { movedReduces, ...(schedule.fetch ? { reason: 'transfers priced: each reduce was placed by its shuffle' } : replanning ? { reason: 're-plan: tasks stay where the search and the frozen tasks put them' } : {}) };
  const plan = toPlanDoc(model, schedule, name);
  const makespan = plan.objective.makespanSlots;
  const allAccepted = plan.rejected.length === 0;
  const accBound = model.frozen ? frozenBound(model, schedule, residual) : allAccepted ? fullBound : makespanBound(model, schedule.accepted);
  // A strategy's own bound is of what it searched: without frozen tasks, the whole plan.
  let bound = Math.max(accBound.makespanSlots, model.frozen ? 0 : result.bound ?? 0);
  if (plan.objective.scheduledTasks === 0) bound = 0;
  bound = Math.min(bound, makespan); // a bound above the plan can only come from a budget-cut proof
  plan.placement = result.placement ?? placeChunks(model, schedule);
  plan.bound = { makespanSlots: bound };
  plan.optimal = proven || (allAccepted && makespan === bound);
  plan.gap = bound > 0 ? (makespan - bound) / bound : 0;
  let revenueStats: Record<string, unknown> = {};
  if (objective === 'revenue') {
    // The plan says what it optimised and how far its revenue can be from the best possible.
    const revenue = scheduleRevenue(model, schedule);
    const rb = revenueUpper!;
    const upper = Math.max(revenue, Math.min(rb.revenue, result.revenueBound ?? Infinity)); // both are valid: the tighter
    plan.objective.revenue = revenue;
    plan.bound.revenue = upper;
    plan.optimal = proven || revenue >= upper - 1e-9 * Math.max(1, Math.abs(upper));
    revenueStats = {
      revenueGap: upper > 0 ? (upper - revenue) / upper : 0,
      revenueBounds: { perJob: rb.perJob, capacity: rb.capacity, strategy: result.revenueBound ?? null },
    };
  }
  plan.stats = {
    objective,
    ...revenueStats,
    elapsedMs: Date.now() - startedAt,
    iterations: result.iterations,
    seed,
    timeBudgetMs: budget.timeBudgetMs,
    ...(shuffleAware ? { shuffleAware } : {}),
    ...(replan ? { replan } : {}),
    ...(hasNetworkFields(instanceModel.doc) ? { transfers: transfersStat(instanceModel.pricesTransfers, ignored, retimed) } : {}),
    bounds: { criticalPath: accBound.criticalPath, energy: accBound.energy, taskSlots: accBound.taskSlots, throughput: accBound.throughput, jobPacking: accBound.jobPacking, classPacking: accBound.classPacking, mixedPacking: accBound.mixedPacking, strategy: result.bound ?? null },
    ...result.stats,
  };
  const check = evaluatePlan(instanceModel, plan);
  if (!check.ok) throw new InfeasiblePlanError(name, check.violations);
  options.onProgress?.({
    strategy: name,
    elapsedMs: Date.now() - startedAt,
    iterations: result.iterations,
    scheduledTasks: plan.objective.scheduledTasks,
    makespanSlots: makespan,
    phase: 'done',
    boundSlots: bound,
    gap: plan.gap,
  });
  return { plan, kpis: check.kpis as unknown as Record<string, unknown>, rejections: explainRejections(instanceModel, plan), ends: assignmentEnds(instanceModel, plan) };
}

/**
 * A lower bound on a re-plan's makespan: the frozen tasks' ends, and the bound of what was left to plan (the
 * residual instance, its accepted jobs): every plan of the instance plans that residual feasibly (its frozen
 * holds and nowSlot are the residual's `reserved` and release; a stage's wait for frozen tasks and their output
 * only lengthen it).
 */
function frozenBound(model: Model, schedule: Schedule, residual: ReturnType<typeof residualOf>): ReturnType<typeof makespanBound> {
  let frozenEnd = 0;
  for (const i of model.frozen!.tasks) frozenEnd = Math.max(frozenEnd, schedule.end(i));
  const rest = residual ? makespanBound(residual.model, Uint8Array.from(residual.jobToFull, (j) => schedule.accepted[j])) : makespanBound(model, new Uint8Array(model.jobs.length));
  return { ...rest, makespanSlots: Math.max(rest.makespanSlots, frozenEnd) };
}

/**
 * How the plan treats the network, for an instance that gives network fields: `nothing-to-move` (no task can
 * have anything to fetch that takes time: model.ts movesData; durations are compute alone), `ignored` (the
 * caller asked: durations are compute alone), `priced` (the strategy searched with every fetch priced) or
 * `priced-after-search` (the strategy searched with compute alone; its order was planned again priced).
 */
function transfersStat(movesData: boolean, ignored: boolean, retimed: boolean): string {
  return !movesData ? 'nothing-to-move' : ignored ? 'ignored' : retimed ? 'priced-after-search' : 'priced';
}

/** A progress report; the gap only when every task is scheduled (the bound is of all jobs). */
function progressOf(model: Model, strategy: string, elapsedMs: number, iterations: number, scheduledTasks: number, makespanSlots: number, boundSlots: number, phase: Progress['phase']): Progress {
  const gap = scheduledTasks === model.nTasks && boundSlots > 0 ? (makespanSlots - boundSlots) / boundSlots : null;
  return { strategy, elapsedMs, iterations, scheduledTasks, makespanSlots, phase, boundSlots, gap };
}

/**
 * Rough cost of what a re-plan does after its search, so that it keeps its budget: the full decodes (the search's
 * order around the frozen tasks, the same order kept where it was: earliest-finish over every node, measured
 * ~300 ms for 11,000 priced tasks on 45 nodes, a tenth of that unpriced), at least what mending the previous plan
 * took, and the evaluation of a priced plan (its least fetch times: ~450 ms for 11,000 tasks).
 */
function replanFinishingMs(model: Model, withPrevious: boolean, mendMs: number): number {
  const decodes = (model.frozen ? 1 : 0) + (withPrevious ? 1 : 0);
  const decodeMs = (model.nTasks * model.K) / (model.pricesTransfers ? 3200 : 32000);
  return Math.max(1.2 * mendMs, decodes * decodeMs) + model.nTasks / (model.pricesTransfers ? 50 : 500);
}

/** Rough cost of bounds + placement + evaluation, so the whole solve stays inside its budget. */
function finishingCostMs(model: Model): number {
  // Placement and evaluation cost per task (measured ~40 ms for 7,000-8,500 tasks), bounds per cell.
  return Math.min(500, 2 + model.nTasks / 250 + (model.nTasks * model.K) / 20000 + (model.K * model.T * model.M) / 200000);
}
