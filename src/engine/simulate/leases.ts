import type { Model } from '../model/model';
import type { SimClock } from './clock';
import type { EventQueue } from './event-queue';
import { NODE_UP, schedule } from './events';
import type { NodeState } from './node-state';

/**
 * Leasing, releasing and draining the instance's `lease` nodes (POSUM's provisioning), what each node
 * has been paid for, and the nodes lost to an outage of the actual-usage input (outages.ts). A `lease` node
 * is down until leased and up its start-up delay later (online policies; a plan's nodes are all up).
 */
export class Leases {
  /** Per node: whether it can run tasks now. */
  readonly up: Uint8Array;
  /** Per node: when its current lease began (-1: none). */
  readonly leasedAt: Float64Array;
  /**
   * Per node: a provisioner asked to release it while it still ran tasks (drainNode). Like YARN's graceful
   * decommissioning, it takes no new task once its minimum lease is over (until then it is paid for anyway)
   * and is released when its last task leaves. Without it a busy node could never be released: the
   * dispatcher kept it busy with the next task, and a policy that wanted it gone paid for it to the end.
   */
  readonly draining: Uint8Array;
  /**
   * Per node: outages under way (0: none). A lost node takes no task, whoever leases it: an outage is the
   * regular customers' (or the hardware's) doing, not the provisioner's, so it is kept apart from `up`.
   */
  readonly lost: Uint8Array;
  /** Per node: seconds of lease ended so far (the current lease counts in uptime() too). */
  private readonly leasedSeconds: Float64Array;
  private readonly leaseSeq: Int32Array;

  constructor(
    private readonly model: Model,
    private readonly clock: SimClock,
    private readonly queue: EventQueue,
    private readonly nodes: readonly NodeState[],
    /** A plan's run pays and uses every node from the start. */
    private readonly mode: 'plan' | 'policy',
  ) {
    this.up = Uint8Array.from(model.doc.nodes, (n) => (n.lease && mode === 'policy' ? 0 : 1));
    this.leasedAt = new Float64Array(model.K).fill(-1);
    this.draining = new Uint8Array(model.K);
    this.lost = new Uint8Array(model.K);
    this.leasedSeconds = new Float64Array(model.K);
    this.leaseSeq = new Int32Array(model.K);
  }

  /** Node k is up and may take new tasks: not draining past its minimum lease. */
  accepting(k: number): boolean {
    if (!this.up[k] || this.lost[k]) return false;
    if (!this.draining[k]) return true;
    return this.clock.now < this.leasedAt[k] + this.model.doc.nodes[k].lease!.minLeaseSeconds - 1e-9;
  }

  /** An outage of node k begins (the caller kills what runs there). */
  lose(k: number): void {
    this.lost[k]++;
  }

  /** An outage of node k ends: it takes tasks again once no other outage holds it. */
  restore(k: number): void {
    if (this.lost[k] > 0) this.lost[k]--;
    if (this.lost[k] === 0) this.clock.capacityEpoch++;
  }

  /** Whether node k is an ephemeral node a provisioner may lease and release. */
  leasable(k: number): boolean {
    return this.model.doc.nodes[k].lease !== undefined;
  }

  /** Leases node k now: it comes up after its start-up delay. False when not leasable or already leased. */
  lease(k: number): boolean {
    const spec = this.model.doc.nodes[k].lease;
    if (!spec || this.leasedAt[k] >= 0) return false;
    const now = this.clock.now;
    this.leasedAt[k] = now;
    this.leaseSeq[k]++;
    schedule(this.queue, now + spec.startupSeconds, NODE_UP, k, this.leaseSeq[k]);
    return true;
  }

  /** The NODE_UP event of lease `seq`: only the current lease's start-up brings the node up (a node released and leased again waits for its new one). */
  comeUp(k: number, seq: number): void {
    if (this.leasedAt[k] >= 0 && seq === this.leaseSeq[k]) (this.up[k] = 1), this.clock.capacityEpoch++;
  }

  /** Whether leased node k may be released now: idle and past its minimum lease. */
  releasable(k: number): boolean {
    const spec = this.model.doc.nodes[k].lease;
    return !!spec && this.leasedAt[k] >= 0 && this.nodes[k].tasks.length === 0 && this.clock.now >= this.leasedAt[k] + spec.minLeaseSeconds - 1e-9;
  }

  /** Releases leased node k (false when it is not releasable now). */
  release(k: number): boolean {
    if (!this.releasable(k)) return false;
    this.leasedSeconds[k] += this.clock.now - this.leasedAt[k];
    this.leasedAt[k] = -1;
    this.up[k] = 0;
    this.draining[k] = 0;
    return true;
  }

  /**
   * Releases leased node k now if it can be, else drains it (`draining`): it is released as soon as it is
   * idle past its minimum lease. False when k is not leased.
   */
  drain(k: number): boolean {
    if (this.leasedAt[k] < 0) return false;
    if (!this.release(k)) this.draining[k] = 1;
    return true;
  }

  /** Takes back a draining node (cheaper than leasing another: it is up and paid for). False when it was not draining. */
  undrain(k: number): boolean {
    if (!this.draining[k]) return false;
    this.draining[k] = 0;
    this.clock.capacityEpoch++;
    return true;
  }

  /** Seconds node k has been paid for by `until`: a node without `lease` from 0; a leasable one while leased. */
  uptime(k: number, until: number): number {
    if (!this.leasable(k) || this.mode === 'plan') return until;
    return this.leasedSeconds[k] + (this.leasedAt[k] >= 0 ? Math.max(0, until - this.leasedAt[k]) : 0);
  }
}
