import { availableParallelism } from 'node:os';
import { better, Schedule } from '../../schedule/schedule';
import { compareRevenue, scoreOf } from '../../revenue/decoder';
import { Strategy, StrategyContext, StrategyResult } from '../../contracts/strategy';
import { startLsThread } from './ls-thread';

/** Salamander (section IV) found the exact approach best below about 1,500 tasks. */
export const EXACT_TASK_LIMIT = 1500;

/**
 * Picks strategies by size. Small instances race `exact` (HiGHS in a worker thread, on the second
 * core) against `ls` (on this thread: with its list phases it beat `ga` on PSPLIB j30, 0.3-0.4% vs 0.55%
 * above the optimum at 1 s, and on j120, ~33% vs ~36% above the critical path at 5 s) and keep the better
 * plan, stopping the race as soon as one side has proved the optimum; large ones race two independent
 * `ls` streams, one on a worker thread (when the machine has a second core), and keep the better plan.
 */
export const auto: Strategy = {
  name: 'auto',
  description: `races exact and ls below ${EXACT_TASK_LIMIT} tasks, two ls streams (one on a worker thread) above`,
  async run(ctx: StrategyContext): Promise<StrategyResult> {
    // The partners come from the context (solve() fills it from the registry).
    const ls = ctx.strategy?.('ls');
    if (!ls) throw new Error('auto needs the ls strategy (StrategyContext.strategy)');
    const small = ctx.model.nTasks <= EXACT_TASK_LIMIT;
    const exact = small ? ctx.strategy?.('exact') : undefined;
    if (!exact) return availableParallelism() < 2 ? tagged(await ls.run(ctx), 'ls') : twoLsStreams(ls, ctx);
    // Each side runs on a child of the budget, which stops with it or on its own. Once the MILP proves
    // the optimum the partner has nothing left to find. Its synchronous loop keeps this thread busy, so
    // exact's result cannot reach it through the event loop: the solver thread requests the partner's
    // stop itself (stopWhenOptimal, in shared memory), which the partner's budget reads.
    // Under an iteration limit neither side stops the other: where a stop lands depends on the threads'
    // timing, and a run under a limit must give the same plan for a seed. Both then end by their counts.
    const racing = !Number.isFinite(ctx.budget.maxIterations);
    const partnerBudget = ctx.budget.child();
    const exactBudget = ctx.budget.child();
    // Start exact first: its worker thread runs while the partner keeps this thread busy.
    const exactRun = Promise.resolve(
      exact.run({ ...ctx, rng: ctx.rng.fork(), budget: exactBudget, stopWhenOptimal: racing ? partnerBudget : undefined }),
    ).then((r) => {
      if (r.optimal && racing) partnerBudget.requestStop();
      return r;
    });
    const lsResult = await ls.run({ ...ctx, rng: ctx.rng.fork(), budget: partnerBudget });
    // And the other way round: a partner that meets the lower bound with every job in is optimal.
    if (racing && provablyOptimal(ctx, lsResult.schedule)) exactBudget.requestStop();
    const exactResult = await exactRun;
    const e = exactResult.schedule;
    const exactWins = exactResult.optimal === true || beats(ctx, e, lsResult.schedule);
    const winner = exactWins ? exactResult : lsResult;
    const sameAccepted = e.accepted.every((a, j) => a === winner.schedule.accepted[j]);
    return {
      ...winner,
      // The MILP's bound holds for its accepted set; it carries over when ls accepted the same jobs.
      bound: sameAccepted ? Math.max(exactResult.bound ?? 0, winner.bound ?? 0) || undefined : winner.bound,
      // A revenue bound holds for every plan, whichever side found it.
      revenueBound: exactResult.revenueBound,
      iterations: lsResult.iterations + exactResult.iterations,
      stats: { ...winner.stats, chosen: exactWins ? 'exact' : ls.name, [ls.name]: lsResult.stats, exact: exactResult.stats },
    };
  },
};

/**
 * Two ls searches with their own seeds, on this thread and on a worker thread, the better plan kept
 * (`beats`; this thread's on a tie, so a run under an iteration limit is reproducible). ls's result
 * depends much on its random stream (ls/restarts.ts), so on the otherwise idle second core a second
 * stream is worth about as much as doubling the budget.
 */
async function twoLsStreams(ls: Strategy, ctx: StrategyContext): Promise<StrategyResult> {
  const thread = startLsThread(ctx, ctx.rng.fork().nextU32());
  const mine = await ls.run({ ...ctx, rng: ctx.rng.fork() });
  const m = mine.schedule;
  const revenue = ctx.objective === 'revenue';
  // Nothing is left to find: the thread need not run on.
  if (provablyOptimal(ctx, m)) thread.stop();
  const mainDone = Date.now();
  const answer = await thread.result;
  // How long this thread waited for the other after its own search ended (0 when the answer was in).
  const waitMs = Date.now() - mainDone;
  const other = typeof answer === 'string' ? null : answer;
  const threadWins = other !== null && beats(ctx, other.schedule, m);
  const winner = threadWins ? other! : mine;
  const summary = (r: StrategyResult) => ({
    tasks: r.schedule.scheduledTasks(),
    makespan: r.schedule.makespan(),
    ...(revenue && { revenue: scoreOf(ctx.model, r.schedule).revenue }),
    iterations: r.iterations,
  });
  return {
    ...winner,
    iterations: mine.iterations + (other?.iterations ?? 0),
    stats: {
      ...winner.stats,
      chosen: threadWins ? 'ls (thread)' : 'ls',
      // A thread that gave no plan says why (the plan is this thread's then).
      streams: { main: summary(mine), thread: other ? summary(other) : `failed: ${answer as string}`, waitMs },
    },
  };
}

/**
 * True when `a` is strictly better than `b` under the objective: with `revenue` more revenue first
 * (then more tasks, a smaller makespan, a smaller sum of job ends), else more tasks, then a smaller makespan.
 */
function beats(ctx: StrategyContext, a: Schedule, b: Schedule): boolean {
  return ctx.objective === 'revenue'
    ? compareRevenue(scoreOf(ctx.model, a), scoreOf(ctx.model, b)) < 0
    : better(a.scheduledTasks(), a.makespan(), b.scheduledTasks(), b.makespan());
}

/** Every job in at the makespan lower bound: optimal for tasks-then-makespan (revenue is not proven this way). */
function provablyOptimal(ctx: StrategyContext, s: Schedule): boolean {
  return ctx.objective !== 'revenue' && s.scheduledTasks() === ctx.model.nTasks && s.makespan() <= ctx.lowerBound;
}

function tagged(r: StrategyResult, chosen: string): StrategyResult {
  return { ...r, stats: { ...r.stats, chosen } };
}
