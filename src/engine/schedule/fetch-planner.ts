import type { Model } from '../model/model';
import { fetchSlotsOf, LeastFetch } from '../network/least-fetch';
import { LinkLoad } from '../network/link-load';

/**
 * What the schedule builders (sgs.ts's Builder, lists/decoder.ts) ask when transfers are priced (FORMAT.md,
 * Transfers priced in plans): how many slots a task fetches on a node if it starts at a slot, with the links'
 * load the tasks placed so far put on them; which of a stage's interchangeable tasks to place on a node (one
 * whose block is there, else in its rack); and the bookkeeping of placing and taking back.
 *
 * A task's fetch is the larger of
 *  - the least fetch time of the specification (network/least-fetch.ts, the one computation of it), and
 *  - its transfers put on the links as the simulator queues them (network/links.ts): its block read from the
 *    holder with the fastest path and its share of every earlier stage's output from each node holding some,
 *    all asked at its start; the receiving node's downlink carries them one after another, each sender's
 *    uplink its own part, each taking what earlier placed transfers left free of the link (LinkLoad). The
 *    fetch ends when the last link has carried its part.
 * So reduces placed together on one node, or many readers of one node's output, are priced with the wait
 * the busy link makes, not the idle-link time.
 */
export class FetchPlanner {
  /** The builders skip nodes by minFetchSlots (the same choices, fewer nodes priced); tests turn it off to compare. */
  static boundFetches = true;
  private readonly least: LeastFetch;
  private readonly links: LinkLoad;
  /** Per task: placed (1) or not. */
  private readonly placed: Uint8Array;
  /** Per task: what its transfers put on the links (LinkLoad.add's log), to take back. */
  private readonly logs: (number[] | null)[];
  /** Per stage: its tasks' senders (node, MB from it per task), made once its predecessors are placed. */
  private readonly senders: ({ node: Int32Array; mb: Float64Array } | null)[];
  /** Per stage, per node: seconds from each sender (secondsTo). */
  private readonly toNode: ((Float64Array | null)[] | null)[];
  /** Per stage: the senders' uplink waits at a slot, for one state of the links (uplinkWaits). */
  private readonly waits: ({ t: number; version: number; wait: Float64Array } | null)[];
  /** Per stage: slowestSecondsPerMB of its senders. */
  private readonly slowest: (Float64Array | null)[];
  /** Changes whenever a placement puts load on the links. */
  private loadVersion = 0;
  /** Two nodes of each rack and bandwidth (the others have the same paths; two, so a node finds one not itself): where slowestSecondsPerMB looks. */
  private readonly probeNodes: number[];
  /** Per stage x node: the least fetch seconds of a task that reads no block remotely (-1: not yet known). */
  private readonly shuffleLeast: Float64Array;
  /** Per stage with blocks: per node, its tasks with a replica there; per rack (rackOf), those with one in it. */
  private readonly onNode: (Map<number, Int32Array> | null)[];
  private readonly inRack: (Map<number, Int32Array> | null)[];
  /** Each node's rack as a number (-1: none given) and how many racks there are. */
  private readonly rackOf: Int32Array;
  private readonly racks: number;
  /**
   * Cursors: the first entry that may still be unplaced, per stage x node list, stage x rack list and stage
   * (placing only moves them on; taking a job back resets its stages').
   */
  private readonly nodeCursor: Int32Array;
  private readonly rackCursor: Int32Array;
  private readonly stageCursor: Int32Array;

  constructor(readonly model: Model) {
    const { nTasks, stages, K } = model;
    this.least = new LeastFetch(model);
    this.links = new LinkLoad(K, model.T, model.slotSeconds);
    this.placed = new Uint8Array(nTasks);
    this.logs = new Array<number[] | null>(nTasks).fill(null);
    this.senders = new Array(stages.length).fill(null);
    this.shuffleLeast = new Float64Array(stages.length * K).fill(-1);
    this.toNode = new Array(stages.length).fill(null);
    this.waits = new Array(stages.length).fill(null);
    this.slowest = new Array(stages.length).fill(null);
    const kinds = new Map<string, number[]>();
    model.racks.forEach((r, k) => {
      const key = `${r}\u0000${model.doc.nodes[k].bandwidthMbps}`;
      const nodes = kinds.get(key) ?? [];
      if (nodes.length < 2) kinds.set(key, [...nodes, k]);
    });
    this.probeNodes = [...kinds.values()].flat();
    const rackIds = new Map<string, number>();
    this.rackOf = Int32Array.from(model.racks, (r) => (r === '' ? -1 : rackIds.get(r) ?? (rackIds.set(r, rackIds.size), rackIds.size - 1)));
    this.racks = rackIds.size;
    this.onNode = stages.map((s) => (s.blocks ? groupTasks(s.firstTask, s.blocks, (k) => k) : null));
    this.inRack = stages.map((s) => (s.blocks ? groupTasks(s.firstTask, s.blocks, (k) => this.rackOf[k]) : null));
    this.nodeCursor = new Int32Array(stages.length * K);
    this.rackCursor = new Int32Array(stages.length * this.racks);
    this.stageCursor = new Int32Array(stages.length);
  }

  /** Forgets every placement (a decoder starting over). */
  reset(): void {
    this.placed.fill(0);
    this.logs.fill(null);
    this.senders.fill(null);
    this.toNode.fill(null);
    this.waits.fill(null);
    this.slowest.fill(null);
    this.shuffleLeast.fill(-1);
    this.nodeCursor.fill(0);
    this.rackCursor.fill(0);
    this.stageCursor.fill(0);
    this.links.clear();
  }

  /**
   * The task of stage g to place on node k: for a stage with blocks, an unplaced one whose block has a replica
   * on k, else one with a replica in k's rack, else the first unplaced; for any other stage, `fallback` (its
   * tasks differ in nothing). The tasks of a stage are interchangeable in every priority list, so placing
   * another of them than the list named changes nothing but where the blocks are read.
   */
  taskFor(g: number, k: number, fallback: number): number {
    const byNode = this.onNode[g];
    if (!byNode) return fallback;
    const local = this.firstUnplaced(this.nodeCursor, g * this.model.K + k, byNode.get(k));
    if (local >= 0) return local;
    const rack = this.rackOf[k];
    const near = rack < 0 ? -1 : this.firstUnplaced(this.rackCursor, g * this.racks + rack, this.inRack[g]!.get(rack));
    if (near >= 0) return near;
    const s = this.model.stages[g];
    for (let n = this.stageCursor[g]; n < s.tasks; n++)
      if (!this.placed[s.firstTask + n]) {
        this.stageCursor[g] = n;
        return s.firstTask + n;
      }
    return fallback;
  }

  /** Slots task i fetches on node k when it starts at slot t (see the class comment); `nodeOf`: where the placed tasks are. */
  fetchSlots(i: number, k: number, t: number, nodeOf: ArrayLike<number>): number {
    const { model } = this;
    const S = model.slotSeconds;
    const g = model.taskStage[i];
    const block = this.least.blockSeconds(i, k);
    let end = t * S;
    let down = 0;
    if (block > 0) {
      const h = this.holder(i, k);
      down += block;
      end = Math.max(end, this.links.endOf(h, 'up', t, block));
    }
    if (model.stages[g].preds.length > 0) {
      const from = this.sendersOf(g, nodeOf);
      const secs = this.secondsTo(g, k, from);
      const wait = this.uplinkWaits(g, t, from);
      for (let n = 0; n < from.node.length; n++) {
        if (from.node[n] === k) continue;
        down += secs[n];
        if (wait[n] > 0) end = Math.max(end, t * S + secs[n] + wait[n]);
      }
    }
    if (!(down > 0)) return 0;
    end = Math.max(end, this.links.endOf(k, 'down', t, down));
    const contended = end === Infinity ? model.T : fetchSlotsOf(end - t * S, S);
    return Math.max(this.leastSlots(i, k, down, nodeOf), contended);
  }

  /**
   * A lower bound on fetchSlots(i, k, any start): 1 when task i reads enough from other nodes to take part of a
   * slot (a fetch counts whole slots), else 0. Summed as fetchSlots sums, stopping as soon as it is known. The
   * builders leave a node unpriced when even this fetch keeps it from beating the best node found: on a data
   * centre most nodes are idle alike and only a chunk's holders read it locally, so most of them stop here.
   */
  minFetchSlots(i: number, k: number, nodeOf: ArrayLike<number>): number {
    const S = this.model.slotSeconds;
    let down = this.least.blockSeconds(i, k);
    if (fetchSlotsOf(down, S) >= 1) return 1;
    const g = this.model.taskStage[i];
    if (this.model.stages[g].preds.length === 0) return 0;
    const from = this.sendersOf(g, nodeOf);
    for (let n = 0; n < from.node.length; n++) {
      if (from.node[n] === k) continue;
      down += this.transfer(from.mb[n], from.node[n], k);
      if (fetchSlotsOf(down, S) >= 1) return 1;
    }
    return 0;
  }

  /** The least fetch slots of task i on node k, its predecessors where `nodeOf` says (network/least-fetch.ts). */
  leastSlotsOf(i: number, k: number, nodeOf: ArrayLike<number>): number {
    return this.least.slots(i, k, nodeOf);
  }

  /**
   * The least fetch slots of task i on node k, from `seconds`, the same sum added up per sender node instead of
   * per task: equal but for rounding, which only matters on a slot boundary, where the specification's own
   * sum (network/least-fetch.ts, once per stage and node) decides.
   */
  private leastSlots(i: number, k: number, seconds: number, nodeOf: ArrayLike<number>): number {
    const S = this.model.slotSeconds;
    const slots = fetchSlotsOf(seconds, S);
    const x = seconds / S;
    if (Math.abs(x - Math.round(x)) > 1e-6) return slots;
    const g = this.model.taskStage[i];
    const exact = this.least.blockSeconds(i, k) > 0 ? this.least.seconds(i, k, nodeOf) : this.shuffleLeastOf(g, k, nodeOf);
    return Math.max(slots, fetchSlotsOf(exact, S));
  }

  /** Task i is placed on node k from slot t: its transfers go on the links (as fetchSlots counted them). */
  reserve(i: number, k: number, t: number, nodeOf: ArrayLike<number>): void {
    const g = this.model.taskStage[i];
    this.placed[i] = 1;
    const log: number[] = [];
    const block = this.least.blockSeconds(i, k);
    let down = 0;
    if (block > 0) {
      this.links.add(this.holder(i, k), 'up', t, block, log);
      down += block;
    }
    if (this.model.stages[g].preds.length > 0) {
      const from = this.sendersOf(g, nodeOf);
      const secs = this.secondsTo(g, k, from);
      for (let n = 0; n < from.node.length; n++) {
        if (from.node[n] === k) continue;
        this.links.add(from.node[n], 'up', t, secs[n], log);
        down += secs[n];
      }
    }
    this.links.add(k, 'down', t, down, log);
    this.logs[i] = log.length > 0 ? log : null;
    if (log.length > 0) this.loadVersion++;
  }

  /** Takes every task of job j back (a job that did not fit): its transfers leave the links. */
  releaseJob(j: number): void {
    const { model } = this;
    const job = model.jobs[j];
    for (let i = job.firstTask; i < job.firstTask + job.taskCount; i++) {
      const log = this.logs[i];
      if (log) this.links.remove(log);
      this.logs[i] = null;
      this.placed[i] = 0;
    }
    this.loadVersion++;
    for (const g of job.stages) {
      this.senders[g] = null;
      this.toNode[g] = null;
      this.waits[g] = null;
      this.slowest[g] = null;
      this.shuffleLeast.fill(-1, g * model.K, (g + 1) * model.K);
      this.nodeCursor.fill(0, g * model.K, (g + 1) * model.K);
      this.rackCursor.fill(0, g * this.racks, (g + 1) * this.racks);
      this.stageCursor[g] = 0;
    }
  }

  /** Per stage, the seconds each of its senders needs to node k (senders' order), by k; made when first asked. */
  private secondsTo(g: number, k: number, from: { node: Int32Array; mb: Float64Array }): Float64Array {
    let byNode = this.toNode[g];
    if (!byNode) this.toNode[g] = byNode = new Array<Float64Array | null>(this.model.K).fill(null);
    let secs = byNode[k];
    if (!secs) {
      secs = new Float64Array(from.node.length);
      for (let n = 0; n < secs.length; n++) secs[n] = this.transfer(from.mb[n], from.node[n], k);
      byNode[k] = secs;
    }
    return secs;
  }

  /**
   * Per sender of stage g, how long its part waits on its own uplink when asked at slot t: the uplink's end
   * for the sender's slowest-path part less that part's idle-link time. Worked out once per stage, slot and
   * state of the links (a candidate node's own part is then its time plus this wait), not per candidate node:
   * pricing every reduce on every node would otherwise walk every sender's uplink each time.
   */
  private uplinkWaits(g: number, t: number, from: { node: Int32Array; mb: Float64Array }): Float64Array {
    const cached = this.waits[g];
    if (cached && cached.t === t && cached.version === this.loadVersion) return cached.wait;
    const S = this.model.slotSeconds;
    const wait = cached?.wait.length === from.node.length ? cached.wait : new Float64Array(from.node.length);
    const slowest = (this.slowest[g] ??= this.slowestSecondsPerMB(from));
    for (let n = 0; n < from.node.length; n++) {
      const q = from.node[n];
      const sec = from.mb[n] * slowest[n];
      wait[n] = this.links.upIdleFrom(q, t) ? 0 : Math.max(0, this.links.endOf(q, 'up', t, sec) - t * S - sec);
    }
    this.waits[g] = { t, version: this.loadVersion, wait };
    return wait;
  }

  /** Per sender, the seconds per MB of its slowest path to any node (its uplink's worst case). */
  private slowestSecondsPerMB(from: { node: Int32Array }): Float64Array {
    const out = new Float64Array(from.node.length);
    for (let n = 0; n < out.length; n++) {
      const q = from.node[n];
      let worst = 0;
      for (const k of this.probeNodes) if (k !== q) worst = Math.max(worst, this.transfer(1, q, k));
      out[n] = worst;
    }
    return out;
  }

  private shuffleLeastOf(g: number, k: number, nodeOf: ArrayLike<number>): number {
    const at = g * this.model.K + k;
    if (this.shuffleLeast[at] < 0) this.shuffleLeast[at] = this.least.shuffleSeconds(g, k, nodeOf);
    return this.shuffleLeast[at];
  }

  /** The replica task i reads on node k (none there): the one with the fastest path, the first of equals. */
  private holder(i: number, k: number): number {
    const s = this.model.stages[this.model.taskStage[i]];
    let best = -1;
    let bestSec = Infinity;
    for (const h of s.blocks![this.model.taskOrdinal[i]]) {
      const sec = this.transfer(s.inputMB, h, k);
      if (sec < bestSec) (best = h), (bestSec = sec);
    }
    return best;
  }

  private transfer(mb: number, from: number, to: number): number {
    return this.least.transferSeconds(mb, from, to);
  }

  /** Stage g's senders: per node, the MB each of g's tasks reads from it (1/tasks of every output written there). */
  private sendersOf(g: number, nodeOf: ArrayLike<number>): { node: Int32Array; mb: Float64Array } {
    const cached = this.senders[g];
    if (cached) return cached;
    const { model } = this;
    const s = model.stages[g];
    const mb = new Map<number, number>();
    for (const p of s.preds) {
      const ps = model.stages[p];
      if (!(ps.outputMB > 0)) continue;
      const share = ps.outputMB / s.tasks;
      for (let q = ps.firstTask; q < ps.firstTask + ps.tasks; q++) if (nodeOf[q] >= 0) mb.set(nodeOf[q], (mb.get(nodeOf[q]) ?? 0) + share);
    }
    const out = { node: Int32Array.from(mb.keys()), mb: Float64Array.from(mb.values()) };
    this.senders[g] = out;
    return out;
  }

  /** The first unplaced task of `list` from cursors[at] on (moving the cursor there), or -1. */
  private firstUnplaced(cursors: Int32Array, at: number, list: Int32Array | undefined): number {
    if (!list) return -1;
    for (let n = cursors[at]; n < list.length; n++)
      if (!this.placed[list[n]]) {
        cursors[at] = n;
        return list[n];
      }
    cursors[at] = list.length;
    return -1;
  }
}

/** A stage's global task ids grouped by the key (a node, a rack; negative: none) of each replica of their block, each task once per key. */
function groupTasks(firstTask: number, blocks: Int32Array[], keyOf: (node: number) => number): Map<number, Int32Array> {
  const lists = new Map<number, number[]>();
  blocks.forEach((holders, t) => {
    const seen = new Set<number>();
    for (const k of holders) {
      const key = keyOf(k);
      if (key < 0 || seen.has(key)) continue;
      seen.add(key);
      let list = lists.get(key);
      if (!list) lists.set(key, (list = []));
      list.push(firstTask + t);
    }
  });
  return new Map([...lists].map(([key, list]) => [key, Int32Array.from(list)]));
}
