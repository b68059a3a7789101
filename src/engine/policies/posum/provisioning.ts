import type { Model } from '../../model/model';
import { deadlineJobs, taskEstimates } from './estimates';
import type { Provisioner } from '../../simulate/driver';
import type { SimulatorView } from '../../simulate/host';
import { sharedByCopies } from '../../simulate/fork';

/**
 * POSUM's provisioning policies (seeds/002 Table II) over the instance's `lease` nodes:
 * - plus-x: lease x more nodes every period; minus-x: release x (idle, past their minimum lease);
 * - dlx: as many leased nodes as the deadline jobs' remaining work needs to end by their deadlines;
 * - maxbsd: as many as keep every batch job's projected bounded slowdown under `maxBoundedSlowdown`.
 * Remaining work: per unfinished task of a job, its stage's demand times its duration on a node of mean
 * speed (the instance's prediction). Capacity: the fixed nodes plus the leased ones (those still starting
 * count: they are paid for). The needed count is per metric, the largest over metrics.
 */
export type ProvisioningName = 'plus-x' | 'minus-x' | 'dlx' | 'maxbsd';
export const PROVISIONING_NAMES: readonly ProvisioningName[] = ['plus-x', 'minus-x', 'dlx', 'maxbsd'];

export interface ProvisioningParams {
  /** Nodes plus-x leases and minus-x releases per period. */
  x: number;
  periodSeconds: number;
  /** maxbsd's ceiling on the projected bounded slowdown of batch jobs. */
  maxBoundedSlowdown: number;
  minExecutionSeconds: number;
}

export const PROVISIONING_DEFAULTS: ProvisioningParams = { x: 1, periodSeconds: 60, maxBoundedSlowdown: 4, minExecutionSeconds: 10 };

export class ProvisioningPolicy implements Provisioner {
  readonly periodSeconds: number;
  private readonly leasableNodes: number[];
  private readonly stageSeconds: Float64Array;
  private readonly jobTaskSeconds: Float64Array;
  private readonly deadlineJob: Uint8Array;
  /**
   * The jobs dlx (the deadline jobs) or maxbsd (the batch jobs) may still count, in job order, for the run
   * `openIn`: a job leaves once found finished (its stages' ended tasks only grow), so that a call looks at the
   * jobs not finished rather than at every job of the day (POSUM's look-ahead asks thousands of times a decision).
   * A copy of the run copies it with the policy, `openIn` then the copy.
   */
  private open: number[] = [];
  private openIn: SimulatorView | null = null;
  /** Per metric: one job's remaining work, and the sum over jobs (reused by every call: no garbage per job). */
  private readonly jobWork: Float64Array;
  private readonly sumWork: Float64Array;

  constructor(
    private readonly model: Model,
    readonly name: ProvisioningName,
    private readonly p: ProvisioningParams = PROVISIONING_DEFAULTS,
  ) {
    if (!(p.periodSeconds > 0)) throw new Error('periodSeconds must be > 0');
    if (!(Number.isInteger(p.x) && p.x >= 0)) throw new Error('x must be an integer >= 0');
    this.periodSeconds = p.periodSeconds;
    // Shared by the run's copies: the model's figures never change, and the scratch arrays live within one call.
    this.leasableNodes = sharedByCopies(model.doc.nodes.map((n, k) => (n.lease ? k : -1)).filter((k) => k >= 0));
    ({ stageSeconds: this.stageSeconds, jobTaskSeconds: this.jobTaskSeconds } = taskEstimates(model));
    this.deadlineJob = deadlineJobs(model);
    this.jobWork = sharedByCopies(new Float64Array(model.M));
    this.sumWork = sharedByCopies(new Float64Array(model.M));
  }

  /** Moves towards target() (`target`: that number, when the caller has just asked for it). */
  decide(sim: SimulatorView, target = this.target(sim)): void {
    this.toTarget(sim, target);
  }

  /**
   * The active leased nodes decide() moves towards now (it reads the run, changes nothing). What decide() does
   * depends on the run and this number alone, so two policies with the same target act alike (POSUM's
   * look-ahead simulates such members once: posum-policy.ts).
   */
  target(sim: SimulatorView): number {
    const leased = this.active(sim);
    const wanted = this.name === 'plus-x' ? leased + this.p.x : this.name === 'minus-x' ? leased - this.p.x : this.name === 'dlx' ? this.forDeadlines(sim) : this.forSlowdown(sim);
    return Math.max(0, Math.min(this.leasableNodes.length, wanted));
  }

  /** Leased nodes not draining: what the policy counts as its cluster's ephemeral part. */
  private active(sim: SimulatorView): number {
    let n = 0;
    for (const k of this.leasableNodes) if (sim.leasedAt[k] >= 0 && !sim.draining[k]) n++;
    return n;
  }

  /**
   * Towards `target` active leased nodes: grows by taking back draining nodes first (up and paid for), then
   * leasing (in node order); shrinks by draining (last first: released at once when idle past the minimum
   * lease, else once they are). Draining nodes are asked again every period, so a node idle only at its
   * minimum lease's end is released then.
   */
  private toTarget(sim: SimulatorView, target: number): void {
    let active = this.active(sim);
    for (const k of this.leasableNodes) if (active < target && sim.undrainNode(k)) active++;
    for (const k of this.leasableNodes) if (active < target && sim.leaseNode(k)) active++;
    for (let n = this.leasableNodes.length - 1; n >= 0 && active > target; n--) {
      const k = this.leasableNodes[n];
      if (sim.leasedAt[k] >= 0 && !sim.draining[k] && sim.drainNode(k)) active--;
    }
    for (const k of this.leasableNodes) if (sim.draining[k]) sim.releaseNode(k);
  }

  /** Per metric, the demand-seconds job j still has to run (in `jobWork`, overwritten by the next call). */
  private remainingWork(sim: SimulatorView, j: number): Float64Array {
    const out = this.jobWork.fill(0);
    for (const g of this.model.jobs[j].stages) {
      const s = this.model.stages[g];
      const left = s.tasks - sim.stageDone[g];
      for (let m = 0; m < this.model.M; m++) out[m] += left * s.demand[m] * this.stageSeconds[g];
    }
    return out;
  }

  private unfinished(sim: SimulatorView, j: number): boolean {
    for (const g of this.model.jobs[j].stages) if (sim.stageDone[g] < this.model.stages[g].tasks) return true;
    return false;
  }

  /**
   * Leased nodes needed so that the fixed nodes plus them offer `rate` (per metric, demand per second), each
   * node counted for what the regular customers leave it now.
   */
  private nodesFor(sim: SimulatorView, rate: Float64Array): number {
    const { model } = this;
    const left = (k: number, m: number) => model.capacity[k][m] * Math.max(0, 1 - sim.usage.at(k, m, sim.slot));
    let needed = 0;
    for (let m = 0; m < model.M; m++) {
      let fixed = 0;
      for (let k = 0; k < model.K; k++) if (!model.doc.nodes[k].lease) fixed += left(k, m);
      let missing = rate[m] - fixed;
      let n = 0;
      for (const k of this.leasableNodes) {
        if (missing <= 1e-9) break;
        missing -= left(k, m);
        n++;
      }
      needed = Math.max(needed, missing > 1e-9 ? this.leasableNodes.length : n);
    }
    return needed;
  }

  /**
   * The jobs of the policy's class (deadline jobs: `deadline`, else batch jobs) released by now, run (accepted)
   * and unfinished, in job order, each passed to `f`; those found finished leave `open` for good.
   */
  private forOpenJobs(sim: SimulatorView, deadline: boolean, f: (j: number) => void): void {
    if (this.openIn !== sim) {
      this.openIn = sim;
      this.open = [];
      for (let j = 0; j < this.model.jobs.length; j++) if (this.deadlineJob[j] === (deadline ? 1 : 0)) this.open.push(j);
    }
    const open = this.open;
    let kept = 0;
    for (let n = 0; n < open.length; n++) {
      const j = open[n];
      if (sim.accepted[j] && this.model.jobs[j].release * this.model.slotSeconds <= sim.now) {
        if (!this.unfinished(sim, j)) continue;
        f(j);
      }
      open[kept++] = j;
    }
    open.length = kept;
  }

  /** DLX: the rate that ends every unfinished deadline job's remaining work by its deadline (jobs released and run: accepted). */
  private forDeadlines(sim: SimulatorView): number {
    const rate = this.sumWork.fill(0);
    this.forOpenJobs(sim, true, (j) => {
      const left = Math.max(this.p.periodSeconds, this.model.jobs[j].deadline * this.model.slotSeconds - sim.now);
      const work = this.remainingWork(sim, j);
      for (let m = 0; m < this.model.M; m++) rate[m] += work[m] / left;
    });
    return this.nodesFor(sim, rate);
  }

  /** MaxBSD: the rate that ends all released batch work (of jobs run: accepted) before the tightest job's slowdown passes the ceiling. */
  private forSlowdown(sim: SimulatorView): number {
    const work = this.sumWork.fill(0);
    let by = Infinity;
    this.forOpenJobs(sim, false, (j) => {
      const w = this.remainingWork(sim, j);
      for (let m = 0; m < this.model.M; m++) work[m] += w[m];
      by = Math.min(by, this.model.jobs[j].release * this.model.slotSeconds + this.p.maxBoundedSlowdown * Math.max(this.jobTaskSeconds[j], this.p.minExecutionSeconds));
    });
    if (by === Infinity) return 0;
    const left = Math.max(this.p.periodSeconds, by - sim.now);
    for (let m = 0; m < this.model.M; m++) work[m] /= left;
    return this.nodesFor(sim, work);
  }
}
