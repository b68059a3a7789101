import { Model } from '../model/model';
import { Random } from '../random';
import { buildFromJobOrder } from '../schedule/sgs';
import { Schedule } from '../schedule/schedule';

/** Work of a job if it ran alone on the fastest nodes: the "execution time" Alg. 1 sorts by. */
export function jobLength(model: Model, j: number): number {
  let w = 0;
  for (const g of model.jobs[j].stages) w += model.stages[g].tasks * model.stages[g].minDur;
  return w;
}

/** Alg. 1 line 1: longest jobs first; equal lengths in random order. */
export function decreasingJobOrder(model: Model, rng: Random): number[] {
  const order = rng.shuffle(model.jobs.map((_, j) => j));
  const len = order.map((j) => jobLength(model, j));
  const byJob = new Float64Array(model.jobs.length);
  order.forEach((j, p) => (byJob[j] = len[p]));
  return order.sort((a, b) => byJob[b] - byJob[a]);
}

/** One Random First Fit Decreasing build (Salamander Alg. 1; the rffd strategy restarts it). */
export function rffdOnce(model: Model, rng: Random): Schedule;
export function rffdOnce(model: Model, rng: Random, stop: () => boolean): Schedule | null;
export function rffdOnce(model: Model, rng: Random, stop?: () => boolean): Schedule | null {
  // Alg. 1 as published: the first slot at which a randomly chosen node can take the task.
  const order = decreasingJobOrder(model, rng);
  return stop ? buildFromJobOrder(model, order, rng, 'earliestStart', stop) : buildFromJobOrder(model, order, rng, 'earliestStart');
}

/** Jobs by deadline (jobs without one last), ties by release, then instance order. */
export function edfOrder(model: Model): number[] {
  const due = (j: number) => (model.jobs[j].deadline < 0 ? Infinity : model.jobs[j].deadline);
  return model.jobs.map((_, j) => j).sort((a, b) => due(a) - due(b) || model.jobs[a].release - model.jobs[b].release || a - b);
}
