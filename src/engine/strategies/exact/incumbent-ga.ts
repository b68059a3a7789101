import { Schedule, better } from '../../schedule/schedule';
import { ga } from '../ga/ga';
import { StrategyContext } from '../strategy';

/** Decodes the genetic algorithm may spend when an iteration limit makes the solve reproducible. */
const REPRODUCIBLE_GA_ITERATIONS = 2000;

/**
 * Runs the genetic algorithm until `until` and keeps the better of its schedule and `quick`. Every
 * slot it saves shrinks the MILP's horizon, and when it reaches the optimum the MILP only has to
 * prove that nothing shorter exists.
 *
 * Synchronous on purpose: `auto` starts exact and then runs its partner on the same thread, so exact
 * must reach its solver thread before it first yields, or it would wait for the partner to finish.
 */
export function improveWithGa(
  ctx: StrategyContext,
  quick: { schedule: Schedule; builds: number },
  until: number,
  reproducible: boolean,
): { schedule: Schedule; builds: number } {
  const s = quick.schedule;
  const done = s.scheduledTasks() === ctx.model.nTasks && s.makespan() <= ctx.lowerBound;
  if (done || until - Date.now() < 20) return quick;
  const result = ga.run({
    ...ctx,
    rng: ctx.rng.fork(),
    deadline: Math.min(until, ctx.deadline),
    maxIterations: reproducible ? REPRODUCIBLE_GA_ITERATIONS : Infinity,
    provenFlag: undefined,
    report: () => undefined,
  });
  // ga runs synchronously (its run returns a result, not a promise); anything else is ignored.
  if (result instanceof Promise) return quick;
  const g = result.schedule;
  const gaBetter = better(g.scheduledTasks(), g.makespan(), s.scheduledTasks(), s.makespan());
  return { schedule: gaBetter ? g : s, builds: quick.builds + result.iterations };
}
