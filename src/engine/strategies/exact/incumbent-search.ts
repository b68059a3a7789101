import { Schedule, better } from '../../schedule/schedule';
import { Strategy, StrategyContext } from '../../contracts/strategy';

/** Iterations (decodes or moves) a search may spend when an iteration limit makes the solve reproducible. */
const REPRODUCIBLE_ITERATIONS = 2000;

/**
 * Runs a heuristic (the genetic algorithm, the local search) until `until` and keeps the better of its
 * schedule and `current`. Every slot it saves shrinks the MILP's horizon, and when it reaches the
 * optimum the bounds and the MILP only have to prove that nothing shorter exists.
 *
 * Synchronous on purpose: `auto` starts exact and then runs its partner on the same thread, so exact
 * must reach its solver thread before it first yields, or it would wait for the partner to finish.
 * A strategy that answers with a promise is therefore ignored, and so is a missing one (a context
 * without StrategyContext.strategy).
 */
export function improveWith(
  search: Strategy | undefined,
  ctx: StrategyContext,
  current: { schedule: Schedule; builds: number },
  until: number,
  reproducible: boolean,
): { schedule: Schedule; builds: number } {
  const s = current.schedule;
  const done = s.scheduledTasks() === ctx.model.nTasks && s.makespan() <= ctx.lowerBound;
  if (!search || done || until - Date.now() < 20) return current;
  const result = search.run({
    ...ctx,
    rng: ctx.rng.fork(),
    budget: ctx.budget.with({ deadline: Math.min(until, ctx.budget.deadline), maxIterations: reproducible ? REPRODUCIBLE_ITERATIONS : Infinity }),
    stopWhenOptimal: undefined,
    report: () => undefined,
  });
  if (result instanceof Promise) return current;
  const g = result.schedule;
  const found = better(g.scheduledTasks(), g.makespan(), s.scheduledTasks(), s.makespan());
  return { schedule: found ? g : s, builds: current.builds + result.iterations };
}
