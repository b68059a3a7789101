import { resourceUtilisation } from '../aco-bp/equations';
import { localityLevel, LocalityCounts } from '../evaluate/locality';
import type { Model } from '../model/model';

/** Seconds between two utilisation samples (the ACO-BP paper's Fig. 8-9 sample every 10 s). */
export const SAMPLE_SECONDS = 10;

/** What the ACO-BP comparison reads besides the makespan (seeds/003, Fig. 5-10), added to every report. */
export interface BatchMetrics {
  /** Share of the cluster's capacity the batch's tasks held, per metric, every SAMPLE_SECONDS while it ran. */
  utilisation: { seconds: number[]; used: Record<string, number[]> };
  /** Eq. 2 per node, averaged over the samples (a node's RU: the product over metrics of its used share). */
  ruByNode: Record<string, number>;
  /**
   * Jain's fairness index over the finished jobs of x_j = (the job's lower bound alone on the cluster:
   * its critical path, or its work over the cluster's capacity on its dominant metric) / its latency.
   * 1 when every job is slowed down alike; 1/n when one job gets everything.
   */
  jainFairness: number;
  /** Where tasks with given blocks ran, relative to their replicas (node-local, rack-local, remote); null without blocks. */
  locality: LocalityCounts | null;
}

/** Collects samples during a run and turns them into BatchMetrics at its end. */
export class BatchSampler {
  private readonly seconds: number[] = [];
  private readonly used: number[][];
  private readonly ruSum: Float64Array;
  private readonly total: Float64Array;

  constructor(private readonly model: Model) {
    this.used = model.metrics.map(() => []);
    this.ruSum = new Float64Array(model.K);
    this.total = new Float64Array(model.M);
    for (let k = 0; k < model.K; k++) for (let m = 0; m < model.M; m++) this.total[m] += model.capacity[k][m];
  }

  /** One sample at `now`: `usedOf(k)` is what node k's tasks hold per metric. */
  sample(now: number, usedOf: (k: number) => Float64Array): void {
    const { model } = this;
    const sum = new Float64Array(model.M);
    for (let k = 0; k < model.K; k++) {
      const u = usedOf(k);
      for (let m = 0; m < model.M; m++) sum[m] += u[m];
      this.ruSum[k] += resourceUtilisation(u, model.capacity[k]);
    }
    this.seconds.push(now);
    for (let m = 0; m < model.M; m++) this.used[m].push(this.total[m] > 0 ? round(sum[m] / this.total[m]) : 0);
  }

  finish(node: Int32Array, done: (i: number) => boolean, latency: (j: number) => number | null): BatchMetrics {
    const { model } = this;
    const n = Math.max(1, this.seconds.length);
    const ruByNode: Record<string, number> = {};
    model.nodeIds.forEach((id, k) => (ruByNode[id] = round(this.ruSum[k] / n)));
    const xs: number[] = [];
    model.jobs.forEach((_, j) => {
      const l = latency(j);
      if (l !== null && l > 0) xs.push(jobLowerBound(model, j, this.total) / l);
    });
    const sum = xs.reduce((a, b) => a + b, 0);
    const sq = xs.reduce((a, b) => a + b * b, 0);
    let locality: LocalityCounts | null = null;
    if (model.stages.some((s) => s.blocks)) {
      locality = { nodeLocal: 0, rackLocal: 0, remote: 0 };
      for (const s of model.stages) {
        if (!s.blocks) continue;
        for (let t = 0; t < s.tasks; t++) if (done(s.firstTask + t)) locality[localityLevel(model, s.blocks[t], node[s.firstTask + t])]++;
      }
    }
    return {
      utilisation: { seconds: this.seconds, used: Object.fromEntries(model.metrics.map((m, mi) => [m, this.used[mi]])) },
      ruByNode,
      jainFairness: xs.length > 0 && sq > 0 ? round((sum * sum) / (xs.length * sq)) : 1,
      locality,
    };
  }
}

/** Seconds job j needs at least, alone on the cluster: its longest stage chain, or its work over the capacity. */
export function jobLowerBound(model: Model, j: number, total: Float64Array): number {
  const job = model.jobs[j];
  const finish = new Map<number, number>();
  let path = 0;
  let energy = 0;
  const work = new Float64Array(model.M);
  for (const g of job.stages) {
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
