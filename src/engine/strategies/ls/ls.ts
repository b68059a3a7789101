import { Model } from '../../model/model';
import { Random } from '../../random';
import { buildFromTaskOrder } from '../../schedule/sgs';
import { Schedule, better } from '../../schedule/schedule';
import { latestFinishOrder } from '../../schedule/tails';
import { rffdOnce } from '../../lists/job-orders';
import { Strategy, StrategyContext, StrategyResult } from '../../contracts/strategy';
import { compareScore, ScoreHistory } from './score';
import { LsState } from './state';
import { MoveRunner } from './moves';
import { ListSearch } from './list-search';
import { JobSetSearch } from './job-set-search';
import { SubsetResult, subsetLimits, subsetSearch } from '../../job-sets/subset-search';
import { greedyBoundSet, noJobFits, setTasks, TargetSets } from '../../job-sets/bound-set';
import { Decoder } from '../../lists/decoder';
import { densityJobOrder, tasksOfJobs, workPerTask } from '../../lists/operators';
import { revenueSearch } from '../../revenue/search';
import { episodeCount, restarts } from './restarts';

/** OptaPlanner defaults used by Salamander (section IV): lateAcceptanceSize = 500, entityTabuRatio = 0.2. */
const LATE_ACCEPTANCE_SIZE = 500;
const ENTITY_TABU_RATIO = 0.2;
/** Without a new best for this many moves, the move-based phase hands over to the list phase. */
const STALL_MOVES = 20000;
/** The list phase ends after this many decodes without a new best. */
const LIST_STALL_DECODES = 2000;
/** When not every job fits, the job-set phase gets at most this share of the budget before the moves start... */
const JOB_SET_SHARE = 0.45;
/** ... and ends earlier after this many decodes without more tasks (also the length of its later phases). */
const JOB_SET_STALL_DECODES = 3000;

/**
 * Tabu Search + Late Acceptance over (node, start) of every task (Salamander III-B2), with incremental
 * scores. Moves: change a task's node and/or start, swap two tasks, shift a task earlier, and swap whole
 * jobs in or out when not every job fits. A move is accepted when its score is not worse than the
 * current one or the one LATE_ACCEPTANCE_SIZE steps ago; recently moved tasks are tabu unless the move
 * gives a new best (aspiration). When the moves stall, late-acceptance phases over priority lists take
 * over for a while (ListSearch); when not every job fits, a job-set phase (JobSetSearch) chooses the
 * accepted jobs first, for up to JOB_SET_SHARE of the budget, and alternates with the list phase at
 * later stalls.
 */
export const ls: Strategy = {
  name: 'ls',
  description:
    'Tabu Search + Late Acceptance local search (Salamander III-B2), incremental scores; with the revenue objective, late acceptance over job orders seeded by tps/edf/fifo',
  run(ctx: StrategyContext): StrategyResult | Promise<StrategyResult> {
    if (ctx.objective === 'revenue') return revenueSearch(ctx, (name) => ctx.strategy?.(name));
    const initial = bestConstruction(ctx.model, ctx.rng, ctx.budget.deadlineCheck());
    // Nothing placed and the bounds refute every job alone: the empty plan is optimal, no search can add to it.
    if (initial.scheduledTasks() === 0 && noJobFits(ctx.model, ctx.budget.deadlineCheck()))
      return { schedule: initial, iterations: 0, optimal: true, stats: { noJobFits: true } };
    // The same for every episode (it depends on the model only), so built once.
    const barred = initial.scheduledTasks() < ctx.model.nTasks ? greedyBoundSet(ctx.model, ctx.budget.deadlineCheck()) : null;
    const episodes = episodeCount(ctx, initial);
    if (episodes <= 1) return searchOnce(ctx, initial, barred);
    // The first episode aims at the greedy set; the later ones at other sets just inside the bound.
    const targets = barred ? new TargetSets(ctx.model, barred) : null;
    return restarts(ctx, episodes, initial, (sub, start, bestTasks) => {
      const target = start || !targets ? barred : targets.pick(sub.rng, bestTasks, sub.budget.deadlineCheck()) ?? barred;
      return searchOnce(sub, start ?? bestConstruction(sub.model, sub.rng, sub.budget.deadlineCheck()), target);
    });
  },
};

/**
 * One run of the search from `initial`: the subset and job-set phases when not every job fits, then
 * the move-based search with its list and job-set phases at stalls, until the deadline. `barred`: the
 * jobs outside the greedy bound set (greedyBoundSet), which the subset search tries last and the
 * job-set phase never readmits (the moves may still swap them in).
 */
function searchOnce(ctx: StrategyContext, initial: Schedule, barred: Uint8Array | null): StrategyResult {
  const { model, rng, budget } = ctx;
  const started = Date.now();
  const stop = budget.deadlineCheck();
  let iterations = 0;
  let jobSetDecodes = 0;
  let jobSetPhases = 0;
  // Under an iteration limit, the job-set phase's share is of the iterations, so the run stays reproducible.
  const limited = Number.isFinite(budget.maxIterations);
  const jobs = initial.scheduledTasks() < model.nTasks ? new JobSetSearch(model, rng, barred) : null;
  let subsets: SubsetResult | null = null;
  if (jobs && !stop()) {
    // Sets of accepted jobs the bounds do not refute, each tried by the decoder (subset-search.ts).
    subsets = subsetSearch(model, initial, rng, subsetLimits(budget, stop), { barred });
    iterations += subsets.steps;
    initial = subsets.best;
  }
  if (jobs && !stop()) {
    // Choose the accepted jobs first: the moves then compact that set (see JobSetSearch).
    const phaseEnd = started + JOB_SET_SHARE * (budget.deadline - started);
    jobSetDecodes += jobs.seed(initial);
    jobSetDecodes += jobs.run({
      stallDecodes: JOB_SET_STALL_DECODES,
      maxDecodes: limited ? Math.floor(JOB_SET_SHARE * budget.maxIterations) : Infinity,
      stop: () => stop() || (!limited && Date.now() >= phaseEnd),
    });
    jobSetPhases++;
    iterations += jobSetDecodes;
    const b = jobs.best;
    if (better(b.tasks, b.makespan, initial.scheduledTasks(), initial.makespan())) initial = b.sched.clone();
  }
  // The moves below price a task by its compute alone (LsState): with priced transfers the search goes on
  // over priority lists, whose decoder plans every fetch.
  if (model.pricesTransfers) return searchLists(ctx, initial, iterations, jobs, { jobSetDecodes, jobSetPhases, barred, subsets });
  let state = new LsState(model, initial);
  const tenure = Math.max(1, Math.min(1000, Math.floor(ENTITY_TABU_RATIO * model.nTasks)));
  const moves = new MoveRunner(state, rng, tenure);
  const history = new ScoreHistory(LATE_ACCEPTANCE_SIZE);
  history.fill(state.hard, state.scheduled, state.makespan, state.sumEnds);

  let best = state.toSchedule();
  let bestTasks = state.scheduled;
  let bestMs = state.makespan;
  let bestEnds = state.sumEnds;
  let lastImprovement = iterations;
  let accepted = 0;
  let restarts = 0;
  let listPhases = 0;
  const list = new ListSearch(model, rng);
  // A decode of 100,000 tasks takes a second or more: cut short at the deadline (its result is dropped).
  list.stopWhen(stop);
  let bestChanged = true;
  let listDecodes = 0;
  let phaseMs = 0;
  let moveCount = 0;
  ctx.report(0, bestTasks, bestMs);
  // The move rate is over the move-based phases only: not the constructions, subset and job-set phases before.
  const movesStarted = Date.now();
  const done = () => bestTasks === model.nTasks && bestMs <= ctx.lowerBound;

  while (!done()) {
    // Checking the clock every move would cost more than most moves; but a job swap places a whole
    // job (several ms with hundreds of tasks), so not much more rarely than this.
    if ((iterations & 63) === 0 && budget.stopNow(iterations)) break;
    if (iterations >= budget.maxIterations) break;
    if (iterations - lastImprovement > STALL_MOVES) {
      // Stalled: intensify in the activity-list view (serial SGS + forward-backward improvement),
      // starting from the best if this phase found a new one, else where the last list phase stopped;
      // then continue the move-based search from the list search's current solution, which differs
      // from the basin this phase stalled in. While jobs are left out, every other stall (the first
      // one too) goes to the job-set phase instead, from the best, to try other sets of accepted jobs.
      restarts++;
      const phaseStarted = Date.now();
      const before = iterations;
      let next: Schedule;
      let found: { sched: Schedule; tasks: number; makespan: number; taskEnds: number };
      if (jobs && bestTasks < model.nTasks && restarts % 2 === 1) {
        iterations += jobs.adopt(best);
        iterations += jobs.run({ stallDecodes: JOB_SET_STALL_DECODES, maxDecodes: budget.maxIterations - iterations, stop });
        jobSetDecodes += iterations - before;
        jobSetPhases++;
        found = jobs.best;
        next = jobs.current;
      } else {
        if (bestChanged) iterations += list.adopt(best);
        bestChanged = false;
        iterations += list.run({
          stallDecodes: LIST_STALL_DECODES,
          maxDecodes: budget.maxIterations - iterations,
          stop,
          bestTasks,
          bestMakespan: bestMs,
          optimal: (t, m) => t === model.nTasks && m <= ctx.lowerBound,
          onBest: (decodes, t, m) => ctx.report(before + decodes, t, m),
        });
        listDecodes += iterations - before;
        listPhases++;
        found = list.best;
        next = list.current;
      }
      if (compareScore(0, found.tasks, found.makespan, found.taskEnds, 0, bestTasks, bestMs, bestEnds) < 0) {
        best = found.sched.clone();
        // The list phase continues from its own state; a job-set best is news to it.
        if (found === jobs?.best) bestChanged = true;
        bestTasks = found.tasks;
        bestMs = found.makespan;
        bestEnds = found.taskEnds;
        ctx.report(iterations, bestTasks, bestMs);
      }
      phaseMs += Date.now() - phaseStarted;
      if (done() || stop() || iterations >= budget.maxIterations) break;
      state = new LsState(model, next);
      moves.reset(state);
      history.fill(state.hard, state.scheduled, state.makespan, state.sumEnds);
      lastImprovement = iterations;
    }
    iterations++;
    moveCount++;
    const h0 = state.hard, t0 = state.scheduled, m0 = state.makespan, e0 = state.sumEnds;
    if (!moves.random(iterations)) continue;
    const slot = iterations % LATE_ACCEPTANCE_SIZE;
    const h = state.hard, t = state.scheduled, m = state.makespan, e = state.sumEnds;
    const improvesBest = h === 0 && compareScore(0, t, m, e, 0, bestTasks, bestMs, bestEnds) < 0;
    const ok =
      (improvesBest || !moves.touchedTabu(iterations)) &&
      (compareScore(h, t, m, e, h0, t0, m0, e0) <= 0 || history.notWorseThan(slot, h, t, m, e));
    if (!ok) {
      moves.undo();
      continue;
    }
    accepted++;
    moves.commit(iterations);
    history.set(slot, h, t, m, e);
    if (improvesBest) {
      if (better(t, m, bestTasks, bestMs)) {
        ctx.report(iterations, t, m);
        lastImprovement = iterations; // only real objective gains reset the stall counter
      }
      best = state.toSchedule();
      bestChanged = true;
      bestTasks = t;
      bestMs = m;
      bestEnds = e;
    }
  }
  const moveMs = Math.max(1, Date.now() - movesStarted - phaseMs);
  return {
    schedule: best,
    iterations,
    stats: {
      acceptedMoves: accepted,
      // Over the time of the move-based phases only: the list phases decode whole schedules.
      movesPerSecond: Math.round((moveCount / moveMs) * 1000),
      moves: moveCount,
      listPhases,
      listDecodes,
      jobSetDecodes,
      jobSetPhases,
      ...(barred && { barredJobs: barred.reduce((n, b) => n + b, 0), targetTasks: setTasks(model, barred) }),
      ...(subsets && { subsetBoundChecks: subsets.boundChecks, subsetDecodes: subsets.decodes, subsetComplete: subsets.complete }),
      tabuTenure: tenure,
      lateAcceptanceSize: LATE_ACCEPTANCE_SIZE,
    },
  };
}

/**
 * The search with priced transfers: late-acceptance phases over priority lists (ListSearch, each decode
 * planning every task's fetch), from the best so far after each stall, alternating with the job-set phase
 * while jobs are left out, until the deadline or the iteration limit.
 */
function searchLists(
  ctx: StrategyContext,
  initial: Schedule,
  iterations: number,
  jobs: JobSetSearch | null,
  before: { jobSetDecodes: number; jobSetPhases: number; barred: Uint8Array | null; subsets: SubsetResult | null },
): StrategyResult {
  const { model, rng, budget } = ctx;
  const stop = budget.deadlineCheck();
  const list = new ListSearch(model, rng);
  // A priced decode of thousands of tasks takes a good share of a second: cut short at the deadline.
  list.stopWhen(stop);
  let best = initial;
  let listPhases = 0;
  let listDecodes = 0;
  let { jobSetDecodes, jobSetPhases } = before;
  const optimal = (t: number, m: number) => t === model.nTasks && m <= ctx.lowerBound;
  ctx.report(iterations, best.scheduledTasks(), best.makespan());
  iterations += list.adopt(best);
  while (!stop() && iterations < budget.maxIterations && !optimal(best.scheduledTasks(), best.makespan())) {
    const start = iterations;
    let found: { sched: Schedule; tasks: number; makespan: number };
    if (jobs && best.scheduledTasks() < model.nTasks && listPhases % 2 === 1) {
      iterations += jobs.adopt(best);
      iterations += jobs.run({ stallDecodes: JOB_SET_STALL_DECODES, maxDecodes: budget.maxIterations - iterations, stop });
      jobSetDecodes += iterations - start;
      jobSetPhases++;
      found = jobs.best;
    } else {
      iterations += list.run({
        stallDecodes: LIST_STALL_DECODES,
        maxDecodes: budget.maxIterations - iterations,
        stop,
        bestTasks: best.scheduledTasks(),
        bestMakespan: best.makespan(),
        optimal,
        onBest: (decodes, t, m) => ctx.report(start + decodes, t, m),
      });
      listDecodes += iterations - start;
      found = list.best;
    }
    listPhases++;
    if (better(found.tasks, found.makespan, best.scheduledTasks(), best.makespan())) {
      best = found.sched.clone();
      ctx.report(iterations, found.tasks, found.makespan);
    }
    if (iterations === start) break;
    // The next phase starts again from the best (a stalled phase's current solution is no better a basin).
    iterations += list.adopt(best);
  }
  return {
    schedule: best,
    iterations,
    stats: {
      transfersSearch: 'lists',
      listPhases,
      listDecodes,
      jobSetDecodes,
      jobSetPhases,
      ...(before.barred && { barredJobs: before.barred.reduce((n, b) => n + b, 0), targetTasks: setTasks(model, before.barred) }),
      ...(before.subsets && { subsetBoundChecks: before.subsets.boundChecks, subsetDecodes: before.subsets.decodes, subsetComplete: before.subsets.complete }),
    },
  };
}

/**
 * From this many tasks, the construction is the serial SGS by latest-finish priority, and RFFD runs only when it
 * gives up or leaves jobs out. At a data centre's size (issue 40, bench/SCALE.md) a search affords a few hundred
 * decodes in its budget, so where it starts is most of where it ends: latest finish first started 7-18 slots
 * shorter than RFFD on every generated instance of 10,000 and 100,000 tasks (seeds 1-3; harness/scale-instance.ts).
 */
const LARGE_TASKS = 10_000;

/**
 * Initial solution: the best of Alg. 1 (RFFD), a serial SGS by latest-finish priority and, when not
 * every job fits, the serial SGS over the jobs by increasing work per task (the GA's density seed, the
 * greedy answer to "most tasks in the room there is"). RFFD always completes, so that there is a plan
 * to return; the SGS gives up at `stop`. Large instances start from latest finish (LARGE_TASKS).
 */
function bestConstruction(model: Model, rng: Random, stop: () => boolean): Schedule {
  const large = model.nTasks >= LARGE_TASKS;
  // Not cut at the deadline: the first construction always completes (rffd's rule), and RFFD, which would run
  // instead, is slower at this size (priced transfers on 100,000 tasks x 999 nodes: latest finish ~56 s; cut at
  // a 10-s budget's deadline, RFFD then took 60 s more).
  const lftFirst = large ? buildFromTaskOrder(model, latestFinishOrder(model), null) : null;
  let best = lftFirst && lftFirst.scheduledTasks() === model.nTasks ? lftFirst : rffdOnce(model, rng);
  if (lftFirst && better(lftFirst.scheduledTasks(), lftFirst.makespan(), best.scheduledTasks(), best.makespan())) best = lftFirst;
  // Latest finish first is the priority rule of one project network (PSPLIB). When many independent jobs
  // all fit, it puts the small jobs last and their last stages crowd the end: on univ-2500-load0.25 the
  // search never left its 182 (small jobs' reduces ending at 174-182) and reaches 181 from rffd's start.
  // Kept when rffd leaves jobs out, where the accepted set matters more than the basin (not measured).
  // With priced transfers it is the one construction that sees the shuffles ahead (tails.ts's expectedTails).
  const lftHelps = !large && (model.jobs.length === 1 || best.scheduledTasks() < model.nTasks || model.pricesTransfers);
  const lft = lftHelps ? buildFromTaskOrder(model, latestFinishOrder(model), null, undefined, stop) : null;
  if (lft && better(lft.scheduledTasks(), lft.makespan(), best.scheduledTasks(), best.makespan())) best = lft;
  if (best.scheduledTasks() < model.nTasks && !stop()) {
    const order = new Int32Array(model.nTasks);
    tasksOfJobs(model, densityJobOrder(model, workPerTask(model), rng), order);
    const dense = new Schedule(model);
    new Decoder(model).decode(order, null, null, dense, undefined, true);
    if (better(dense.scheduledTasks(), dense.makespan(), best.scheduledTasks(), best.makespan())) best = dense;
  }
  return best;
}
