import { better } from '../../schedule/schedule';
import { Strategy, StrategyContext, StrategyResult } from '../strategy';

/** Salamander (section IV) found the exact approach best below about 1,500 tasks. */
export const EXACT_TASK_LIMIT = 1500;

/**
 * Picks strategies by size. Small instances race `exact` (HiGHS in a worker thread, on the second
 * core) against `ga` (on this thread: on PSPLIB j30/j120 it beat `ls` in the benchmark, 0.75% vs 3.55%
 * above the optimum at 1 s) and keep the better plan; large ones run `ls` alone.
 */
export function makeAuto(lookup: (name: string) => Strategy | undefined): Strategy {
  return {
    name: 'auto',
    description: `races exact and ga below ${EXACT_TASK_LIMIT} tasks, ls above`,
    async run(ctx: StrategyContext): Promise<StrategyResult> {
      const ls = lookup('ls')!;
      const small = ctx.model.nTasks <= EXACT_TASK_LIMIT;
      const exact = small ? lookup('exact') : undefined;
      const partner = (small && lookup('ga')) || ls;
      if (!exact) return tagged(await ls.run(ctx), 'ls');
      // Start exact first: its worker thread runs while ls keeps this thread busy.
      const exactRun = Promise.resolve(exact.run({ ...ctx, rng: ctx.rng.fork() }));
      const lsResult = await partner.run({ ...ctx, rng: ctx.rng.fork() });
      const exactResult = await exactRun;
      const e = exactResult.schedule;
      const l = lsResult.schedule;
      const exactWins =
        exactResult.optimal === true ||
        better(e.scheduledTasks(), e.makespan(), l.scheduledTasks(), l.makespan());
      const winner = exactWins ? exactResult : lsResult;
      const sameAccepted = e.accepted.every((a, j) => a === winner.schedule.accepted[j]);
      return {
        ...winner,
        // The MILP's bound holds for its accepted set; it carries over when ls accepted the same jobs.
        bound: sameAccepted ? Math.max(exactResult.bound ?? 0, winner.bound ?? 0) || undefined : winner.bound,
        iterations: lsResult.iterations + exactResult.iterations,
        stats: { ...winner.stats, chosen: exactWins ? 'exact' : partner.name, [partner.name]: lsResult.stats, exact: exactResult.stats },
      };
    },
  };
}

function tagged(r: StrategyResult, chosen: string): StrategyResult {
  return { ...r, stats: { ...r.stats, chosen } };
}
