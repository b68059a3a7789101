import type { Model } from '../model/model';
import type { SimClock } from './clock';
import { NodeLinks, pathSeconds, stagingSeconds } from '../network/links';

/**
 * Where each task's inputs are and what moving them costs: the chunk replicas the driver placed, the output
 * the ended tasks wrote (what the stages after them shuffle), the nodes' links the transfers queue on
 * (transfer.ts), and the bytes moved and staging times the report gives.
 */
export class TaskInputs {
  /** Set by the driver in prepare(): chunk replica nodes per task, null when the task reads no chunk. */
  readonly replicas: (number[] | null)[];
  private readonly links: NodeLinks;
  /** Per stage x node: MB of output its ended tasks wrote there (what the stages after it shuffle). */
  private readonly writtenMB: Float64Array;
  /** Per stage: it has predecessors (a reduce): it fetches their output, or waits for it when launched early. */
  private readonly shuffles: Uint8Array;
  /** Per job: seconds to stage its chunks before it starts (stage()). */
  readonly staging: Float64Array;
  /** Bytes of the chunk placement (every replica) and of remote chunk reads (every attempt). */
  placementBytes = 0;
  remoteBytes = 0;

  constructor(
    private readonly model: Model,
    private readonly clock: SimClock,
  ) {
    this.replicas = new Array(model.nTasks).fill(null);
    this.links = new NodeLinks(model.doc.nodes.map((n) => n.bandwidthMbps));
    this.writtenMB = new Float64Array(model.stages.length * model.K);
    this.shuffles = Uint8Array.from(model.stages, (s) => (s.preds.length > 0 ? 1 : 0));
    this.staging = new Float64Array(model.jobs.length);
  }

  /** Chunk placement before the jobs start: every replica crosses the network once (bytes and time). */
  stage(accepted: ArrayLike<number>): void {
    const { model } = this;
    const mb = new Float64Array(model.K);
    const bw = model.doc.nodes.map((n) => n.bandwidthMbps);
    model.jobs.forEach((job, j) => {
      if (!accepted[j]) return;
      mb.fill(0);
      for (let i = job.firstTask; i < job.firstTask + job.taskCount; i++) {
        const r = this.replicas[i];
        if (r === null || model.stages[model.taskStage[i]].blocks) continue; // given blocks are already there
        const size = model.stages[model.taskStage[i]].inputMB;
        for (const k of r) mb[k] += size;
      }
      for (let k = 0; k < model.K; k++) this.placementBytes += mb[k] * 1e6;
      this.staging[j] = stagingSeconds(mb, bw);
    });
  }

  /** The node holds a replica of the task's chunk (or the task reads none). */
  isLocal(i: number, k: number): boolean {
    const r = this.replicas[i];
    return r === null || r.includes(k);
  }

  /** Stage g has predecessors: its tasks fetch their output (a reduce's shuffle). */
  shuffled(g: number): boolean {
    return this.shuffles[g] === 1;
  }

  /** Task i, launched on node k, read its chunk remotely: its bytes count as moved. */
  countRemoteRead(i: number): void {
    this.remoteBytes += this.model.stages[this.model.taskStage[i]].inputMB * 1e6;
  }

  /** Task i ended on node k: its output (if its stage writes any) is there for the stages after it. */
  wrote(i: number, k: number): void {
    const g = this.model.taskStage[i];
    const s = this.model.stages[g];
    if (s.outputMB > 0) this.writtenMB[g * this.model.K + k] += s.outputMB;
  }

  /** Queues a transfer of `mb` from node `from` to node `to` now; returns when it arrives. */
  send(mb: number, from: number, to: number): number {
    return this.links.reserve(this.clock.now, from, to, this.pathSeconds(mb, from, to));
  }

  /** Seconds from now until task i's inputs (its chunk, a reduce's share of the map output) would be on node k if launched there now (queued behind the transfers already on the links). */
  fetchSeconds(i: number, k: number): number {
    this.links.begin();
    const end = this.fetch(i, k);
    this.links.undo();
    return end - this.clock.now;
  }

  /**
   * Queues the transfers that bring task i's inputs to node k, launched there now, and returns when the
   * last arrives (now when nothing moves): its chunk when no replica is on k (from a replica in k's rack
   * when one is, else any; among those the one whose uplink frees first, as a reader takes the replica that
   * answers), and, for a stage after others whose tasks write output (`outputMB`), its share (1/tasks) of
   * every output written so far, fetched from each node that holds some (nothing from k itself). Each
   * transfer queues on its sender's uplink and on k's downlink (transfer.ts).
   */
  fetch(i: number, k: number): number {
    const { model } = this;
    const now = this.clock.now;
    const g = model.taskStage[i];
    const s = model.stages[g];
    let end = now;
    if (!this.isLocal(i, k)) {
      const from = this.source(this.replicas[i]!, k);
      end = this.links.reserve(now, from, k, this.pathSeconds(s.inputMB, from, k));
    }
    if (s.preds.length === 0) return end;
    // Per source node, one transfer of everything this task reads from it. With independent link queues
    // (transfer.ts) the order does not change when the last one arrives: node order.
    const K = model.K;
    for (let q = 0; q < K; q++) {
      if (q === k) continue;
      let mb = 0;
      for (const p of s.preds) mb += this.writtenMB[p * K + q];
      if (mb > 0) end = Math.max(end, this.links.reserve(now, q, k, this.pathSeconds(mb / s.tasks, q, k)));
    }
    return end;
  }

  /** The replica task i reads on node k: in k's rack when one is (faster with a network), the one whose uplink frees first. */
  private source(replicas: number[], k: number): number {
    const rack = this.model.racks[k];
    let best = -1;
    let bestNear = false;
    for (const r of replicas) {
      const near = rack !== '' && this.model.racks[r] === rack;
      if (best < 0 || (near && !bestNear) || (near === bestNear && this.links.uplinkFreeAt(r) < this.links.uplinkFreeAt(best))) (best = r), (bestNear = near);
    }
    return best;
  }

  /**
   * Seconds to move `mb` from node `from` to node `to` once both links are free: at the slowest of the two
   * nodes' links and, with a network, the rate for their distance (intra- or inter-rack).
   */
  private pathSeconds(mb: number, from: number, to: number): number {
    return pathSeconds(this.model, this.links.bandwidthMbps, mb, from, to);
  }
}
