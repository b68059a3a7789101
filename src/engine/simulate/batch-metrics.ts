import { resourceUtilisation } from '../aco-bp/equations';
import { clusterCapacity, jainIndex, jobLowerBound, SAMPLE_SECONDS } from '../evaluate/batch-kpis';
import { localityLevel, LocalityCounts } from '../evaluate/locality';
import type { Model } from '../model/model';

export { SAMPLE_SECONDS };

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

/** What a run's SAMPLE events feed: its samples, turned into BatchMetrics at its end. */
export interface Sampler {
  sample(now: number, usedOf: (k: number) => Float64Array): void;
  finish(node: Int32Array, done: (i: number) => boolean, latency: (j: number) => number | null): BatchMetrics;
}

/**
 * The sampler of a copy whose batch metrics nobody reads (Simulator.forkWithoutSamples: POSUM's look-ahead scores
 * members from the jobs' ends and the leases): it keeps nothing, so a copy neither copies the run's samples nor
 * takes its own. Its SAMPLE events still come (a run cut at a horizon stops at its last event, a sample's too).
 */
export const NO_SAMPLES: Sampler = {
  sample(): void {},
  finish: () => ({ utilisation: { seconds: [], used: {} }, ruByNode: {}, jainFairness: 0, locality: null }),
};

/** Collects samples during a run and turns them into BatchMetrics at its end. */
export class BatchSampler implements Sampler {
  private readonly seconds: number[] = [];
  private readonly used: number[][];
  private readonly ruSum: Float64Array;
  private readonly total: Float64Array;

  constructor(private readonly model: Model) {
    this.used = model.metrics.map(() => []);
    this.ruSum = new Float64Array(model.K);
    this.total = clusterCapacity(model);
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
      jainFairness: jainIndex(xs),
      locality,
    };
  }
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;
