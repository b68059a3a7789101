import { Model, taskSeconds } from '../../model/model';
import { TaskState } from '../../simulate/driver';
import type { SimulatorView } from '../../simulate/host';

/**
 * The earliest job j can end from the simulation's present state, were capacity unlimited from now on:
 * its ended tasks at their ends, its running ones at their predicted ends (launch + duration at their
 * node's speed), and the ones not launched yet from now, at the fastest node's speed, each stage after
 * the stages it waits for. A lower bound on the job's end, with no parameter to tune.
 *
 * Why the look-ahead needs it: a job the look-ahead leaves unfinished was scored as ending at the window's
 * end, so a deadline job whose long tasks end hours later showed no violation in any member, and the
 * members that lease to run more of its tasks at once looked only more expensive (bench:posum's
 * bursty-33: every deadline member late by ~20 min, found only after the decisions that could prevent it).
 */
export function earliestEnd(model: Model, sim: SimulatorView, j: number): number {
  const fastest = fastestSpeed(model);
  const stageEnd = new Map<number, number>();
  const endOf = (g: number): number => {
    const known = stageEnd.get(g);
    if (known !== undefined) return known;
    const s = model.stages[g];
    let start = sim.now;
    for (const q of s.preds) start = Math.max(start, endOf(q));
    let end = sim.now;
    for (let i = s.firstTask; i < s.firstTask + s.tasks; i++) {
      if (sim.state[i] === TaskState.Skipped) continue;
      if (sim.state[i] === TaskState.Done) end = Math.max(end, sim.endTime[i]);
      else if (sim.node[i] >= 0) end = Math.max(end, sim.startedAt[i] + taskSeconds(s, model.speed[sim.node[i]]));
      else end = Math.max(end, start + taskSeconds(s, fastest));
    }
    stageEnd.set(g, end);
    return end;
  };
  let end = sim.now;
  for (const g of model.jobs[j].stages) end = Math.max(end, endOf(g));
  return end;
}

/** The fastest node's speed, once per model (the look-ahead asks for every job it scores). */
const FASTEST = new WeakMap<Model, number>();
function fastestSpeed(model: Model): number {
  let v = FASTEST.get(model);
  if (v === undefined) FASTEST.set(model, (v = model.speed.reduce((a, b) => Math.max(a, b), 0)));
  return v;
}
