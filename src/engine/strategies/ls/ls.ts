import { Model } from '../../model/model';
import { Random } from '../../random';
import { buildFromTaskOrder } from '../../schedule/sgs';
import { Schedule, better } from '../../schedule/schedule';
import { stageTails } from '../../schedule/tails';
import { rffdOnce } from '../rffd/rffd';
import { deadlineCheck, Strategy, StrategyContext, StrategyResult, timeUp } from '../strategy';
import { compareScore, ScoreHistory } from './score';
import { LsState } from './state';
import { MoveRunner } from './moves';
import { justify, perturb } from './justify';
import { revenueSearch } from './revenue-search';
// Circular on purpose (index registers ls): only read at run time, to seed the revenue search.
import { getStrategy, strategyNames } from '../index';

/** OptaPlanner defaults used by Salamander (section IV): lateAcceptanceSize = 500, entityTabuRatio = 0.2. */
const LATE_ACCEPTANCE_SIZE = 500;
const ENTITY_TABU_RATIO = 0.2;
/** Without a new best for this many moves, restart from the best with a justification pass. */
const STALL_MOVES = 20000;

/**
 * Tabu Search + Late Acceptance over (node, start) of every task (Salamander III-B2), with incremental
 * scores. Moves: change a task's node and/or start, swap two tasks, shift a task earlier, and swap whole
 * jobs in or out when not every job fits. A move is accepted when its score is not worse than the
 * current one or the one LATE_ACCEPTANCE_SIZE steps ago; recently moved tasks are tabu unless the move
 * gives a new best (aspiration).
 */
export const ls: Strategy = {
  name: 'ls',
  description:
    'Tabu Search + Late Acceptance local search (Salamander III-B2), incremental scores; with the revenue objective, late acceptance over job orders seeded by tps/edf/fifo',
  run(ctx: StrategyContext): StrategyResult | Promise<StrategyResult> {
    if (ctx.objective === 'revenue') return revenueSearch(ctx, (name) => (strategyNames().includes(name) ? getStrategy(name) : undefined));
    const { model, rng } = ctx;
    const started = Date.now();
    const stop = deadlineCheck(ctx);
    const initial = bestConstruction(model, rng, stop);
    let state = new LsState(model, initial);
    const tenure = Math.max(1, Math.min(1000, Math.floor(ENTITY_TABU_RATIO * model.nTasks)));
    const moves = new MoveRunner(state, rng, tenure);
    const history = new ScoreHistory(LATE_ACCEPTANCE_SIZE);
    history.fill(state.hard, state.scheduled, state.makespan, state.sumEnds);

    let best = state.toSchedule();
    let bestTasks = state.scheduled;
    let bestMs = state.makespan;
    let bestEnds = state.sumEnds;
    let lastImprovement = 0;
    let iterations = 0;
    let accepted = 0;
    let restarts = 0;
    ctx.report(0, bestTasks, bestMs);
    const done = () => bestTasks === model.nTasks && bestMs <= ctx.lowerBound;

    while (!done()) {
      // Checking the clock every move would cost more than most moves; but a job swap places a whole
      // job (several ms with hundreds of tasks), so not much more rarely than this.
      if ((iterations & 63) === 0 && timeUp(ctx, iterations)) break;
      if (iterations >= ctx.maxIterations) break;
      if (iterations - lastImprovement > STALL_MOVES) {
        // Stalled: justify the best (forward-backward improvement) and continue the search from there.
        restarts++;
        const j = justify(model, best, rng, stop);
        if (compareScore(0, j.scheduledTasks(), j.makespan(), j.sumJobEnds(), 0, bestTasks, bestMs, Infinity) < 0) {
          best = j;
          bestTasks = j.scheduledTasks();
          bestMs = j.makespan();
          ctx.report(iterations, bestTasks, bestMs);
        }
        // Continue from a perturbed copy of the best (iterated local search): re-decode its start
        // order with a few random swaps and justify it, so the search leaves the basin it stalled in.
        state = new LsState(model, perturb(model, best, rng, stop));
        moves.reset(state);
        history.fill(state.hard, state.scheduled, state.makespan, state.sumEnds);
        lastImprovement = iterations;
        if (stop()) break; // the restart may have run into the deadline
      }
      iterations++;
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
        bestTasks = t;
        bestMs = m;
        bestEnds = e;
      }
    }
    const elapsed = Math.max(1, Date.now() - started);
    return {
      schedule: best,
      iterations,
      stats: {
        acceptedMoves: accepted,
        movesPerSecond: Math.round((iterations / elapsed) * 1000),
        restarts,
        tabuTenure: tenure,
        lateAcceptanceSize: LATE_ACCEPTANCE_SIZE,
      },
    };
  },
};

/**
 * Initial solution: the better of Alg. 1 (RFFD) and a serial SGS by latest-finish priority. RFFD always
 * completes, so that there is a plan to return; the SGS gives up at `stop`.
 */
function bestConstruction(model: Model, rng: Random, stop: () => boolean): Schedule {
  const first = rffdOnce(model, rng);
  const lft = buildFromTaskOrder(model, latestFinishOrder(model), null, undefined, stop);
  return lft && better(lft.scheduledTasks(), lft.makespan(), first.scheduledTasks(), first.makespan()) ? lft : first;
}

/**
 * Tasks by increasing latest finish time (the LFT priority rule, strong for makespan): a stage's LFT is
 * the horizon minus the longest chain of shortest durations after it.
 */
export function latestFinishOrder(model: Model): Int32Array {
  const tail = stageTails(model);
  const order = Array.from({ length: model.nTasks }, (_, i) => i);
  order.sort((a, b) => tail[model.taskStage[b]] - tail[model.taskStage[a]] || a - b);
  return Int32Array.from(order);
}
