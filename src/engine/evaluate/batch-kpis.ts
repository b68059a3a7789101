import type { Model } from '../model/model';
import type { JobOutcome } from './job-outcome';

/** Seconds between two utilisation samples (the ACO-BP paper's Fig. 8-9 sample every 10 s). */
export const SAMPLE_SECONDS = 10;

/** The plan's figures of the ACO-BP comparison (seeds/003, Fig. 7-10): utilisation over time, RU per node, fairness. */
export function batchKpis(model: Model, slotLoad: Float64Array, slots: number, ruNode: Float64Array, jobs: JobOutcome[]) {
  const total = clusterCapacity(model);
  const every = Math.max(1, Math.round(SAMPLE_SECONDS / model.slotSeconds));
  const seconds: number[] = [];
  const used: Record<string, number[]> = Object.fromEntries(model.metrics.map((m) => [m, []]));
  for (let t = 0; t < slots; t += every) {
    seconds.push(t * model.slotSeconds);
    model.metrics.forEach((m, mi) => used[m].push(total[mi] > 0 ? round(slotLoad[mi * slots + t] / total[mi]) : 0));
  }
  const ruByNode: Record<string, number> = {};
  model.nodeIds.forEach((id, k) => (ruByNode[id] = slots > 0 ? round(ruNode[k] / slots) : 0));
  const xs: number[] = [];
  jobs.forEach((o, j) => {
    if (!o.accepted || o.endSlot === null) return;
    const latency = (o.endSlot - model.jobs[j].release) * model.slotSeconds;
    if (latency > 0) xs.push(jobLowerBound(model, j, total) / latency);
  });
  return { utilisationSeries: { seconds, used }, ruByNode, jainFairness: jainIndex(xs) };
}

/** Jain's fairness index (sum x)^2 / (n sum x^2): 1 when all are equal, 1/n when one has everything; 1 for none. */
export function jainIndex(xs: readonly number[]): number {
  const sum = xs.reduce((a, b) => a + b, 0);
  const sq = xs.reduce((a, b) => a + b * b, 0);
  return xs.length > 0 && sq > 0 ? round((sum * sum) / (xs.length * sq)) : 1;
}

/** Per metric, the capacity of all nodes together. */
export function clusterCapacity(model: Model): Float64Array {
  const total = new Float64Array(model.M);
  for (let k = 0; k < model.K; k++) for (let m = 0; m < model.M; m++) total[m] += model.capacity[k][m];
  return total;
}

/** Seconds job j needs at least, alone on the cluster: its longest stage chain, or its work over the capacity. */
export function jobLowerBound(model: Model, j: number, total: Float64Array): number {
  const finish = new Map<number, number>();
  let path = 0;
  let energy = 0;
  const work = new Float64Array(model.M);
  for (const g of model.jobs[j].stages) {
    const s = model.stages[g];
    const secs = s.minDur * model.slotSeconds;
    const startAt = Math.max(0, ...s.preds.map((q) => finish.get(q) ?? 0));
    finish.set(g, startAt + secs);
    path = Math.max(path, startAt + secs);
    for (let m = 0; m < model.M; m++) work[m] += s.tasks * s.demand[m] * secs;
  }
  for (let m = 0; m < model.M; m++) if (total[m] > 0) energy = Math.max(energy, work[m] / total[m]);
  return Math.max(path, energy);
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;
