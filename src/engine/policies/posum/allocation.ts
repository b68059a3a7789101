import type { Model } from '../../model/model';
import { deadlineJobs, taskEstimates } from './estimates';
import { basic } from '../../predict';
import { emptyStats } from '../../predict/stats';
import type { SimulatorView } from '../../simulate/host';
import { JobOrderDispatch } from '../dispatch/job-order-dispatch';
import { HEARTBEAT_SECONDS } from '../dispatch/locality-dispatch';

/**
 * POSUM's four allocation policies (seeds/002, section V and Table II). Each decides task by task at every
 * free container (JobOrderDispatch), so jobs are reshuffled while they run. Deadline-constrained (DC) jobs
 * are those of class `deadline` with a deadline; the others are batch (BC) jobs.
 * - EDLS-Sh: DC jobs get a share delta of the cluster, EDF inside; BC jobs 1 - delta, largest slowdown
 *   first (LSF). A queue under its share is served first; past it, the other queue is (work-conserving:
 *   a share nobody else wants is not left idle).
 * - EDLS-Pr: the two queues; at every decision the DC queue is picked first with probability delta
 *   (the simulation's seeded generator), else the BC queue.
 * - hSRTF: the job with the shortest predicted remaining time first (Cheriere et al.); remaining time is
 *   the job's unfinished tasks times the basic predictor's runtime from its ended tasks of the stage (this
 *   job's current evidence), else the stage's duration on a node of mean speed.
 * - LOCF: FIFO (release, then instance order) with delay scheduling for locality (Zaharia et al.).
 * Slowdown for LSF: (now - release) / max(the job's task-seconds at mean speed, MinE) - the bounded slowdown
 * of Table I with e_i estimated from the instance, since the ended tasks alone undercount a running job.
 */
export type PosumAllocation = 'edls-sh' | 'edls-pr' | 'hsrtf' | 'locf';
export const POSUM_ALLOCATIONS: readonly PosumAllocation[] = ['edls-sh', 'edls-pr', 'hsrtf', 'locf'];

export interface PosumAllocationParams {
  /** Importance of DC jobs, in [0, 1] (the paper's delta). */
  delta: number;
  /** MinE of Table I, seconds. */
  minExecutionSeconds: number;
}

export const POSUM_ALLOCATION_DEFAULTS: PosumAllocationParams = { delta: 0.5, minExecutionSeconds: 10 };

export class PosumAllocationPolicy extends JobOrderDispatch {
  readonly name: string;
  private readonly dc: Uint8Array;
  /** Per stage: seconds of one task on a node of mean speed (the prediction before anything ended). */
  private readonly stageSeconds: Float64Array;
  private readonly jobTaskSeconds: Float64Array;

  constructor(model: Model, readonly kind: PosumAllocation, private readonly p: PosumAllocationParams = POSUM_ALLOCATION_DEFAULTS) {
    super(model, kind === 'locf' ? HEARTBEAT_SECONDS : 0);
    if (!(p.delta >= 0 && p.delta <= 1)) throw new Error('delta must be in [0, 1]');
    this.name = kind;
    this.offerOnlyNodesWithRoom = true;
    this.dc = deadlineJobs(model);
    ({ stageSeconds: this.stageSeconds, jobTaskSeconds: this.jobTaskSeconds } = taskEstimates(model));
  }

  protected order(sim: SimulatorView, stages: number[]): number[] {
    const { model } = this;
    const job = (g: number) => model.stages[g].job;
    if (this.kind === 'locf') return stages.sort((a, b) => model.jobs[job(a)].release - model.jobs[job(b)].release || job(a) - job(b) || a - b);
    if (this.kind === 'hsrtf') {
      const remaining = new Map<number, number>();
      for (const g of stages) if (!remaining.has(job(g))) remaining.set(job(g), this.remainingSeconds(sim, job(g)));
      return stages.sort((a, b) => remaining.get(job(a))! - remaining.get(job(b))! || job(a) - job(b) || a - b);
    }
    const edf = stages.filter((g) => this.dc[job(g)]).sort((a, b) => model.jobs[job(a)].deadline - model.jobs[job(b)].deadline || job(a) - job(b) || a - b);
    const lsf = stages.filter((g) => !this.dc[job(g)]).sort((a, b) => this.slowdown(sim, job(b)) - this.slowdown(sim, job(a)) || job(a) - job(b) || a - b);
    const dcFirst = this.kind === 'edls-sh' ? this.dcShare() < this.p.delta : sim.rng.next() < this.p.delta;
    return dcFirst ? [...edf, ...lsf] : [...lsf, ...edf];
  }

  /** Dominant share of the cluster held by the DC jobs' running tasks. */
  private dcShare(): number {
    let d = 0;
    for (let m = 0; m < this.model.M; m++) {
      if (!(this.total[m] > 0)) continue;
      let held = 0;
      for (let j = 0; j < this.model.jobs.length; j++) if (this.dc[j]) held += this.held[j * this.model.M + m];
      d = Math.max(d, held / this.total[m]);
    }
    return d;
  }

  private slowdown(sim: SimulatorView, j: number): number {
    const waited = sim.now - this.model.jobs[j].release * this.model.slotSeconds;
    return waited / Math.max(this.jobTaskSeconds[j], this.p.minExecutionSeconds);
  }

  /** Unfinished tasks of the job times each stage's predicted runtime (basic predictor on the stage's ended tasks). */
  private remainingSeconds(sim: SimulatorView, j: number): number {
    let total = 0;
    for (const g of this.model.jobs[j].stages) {
      const s = this.model.stages[g];
      const left = s.tasks - sim.stageDone[g];
      if (left <= 0) continue;
      const current = emptyStats();
      const run = sim.stageRuns;
      current.runtime = { n: run.n[g], sum: run.sum[g], sumSq: run.sumSq[g], num: run.sum[g], den: run.n[g] };
      const p = basic({ kind: s.preds.length ? 'reduce' : 'map', tasks: s.tasks, inputBytesPerTask: null, mapInputBytes: null, own: { current, byClass: null, byCustomer: null }, maps: null });
      total += left * (p?.seconds ?? this.stageSeconds[g]);
    }
    return total;
  }
}
