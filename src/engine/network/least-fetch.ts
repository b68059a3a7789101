import type { Model } from '../model/model';
import { pathSeconds } from './links';

/**
 * The least fetch time of a task, as the shared specification defines it (Transfers priced in plans; in
 * docs/FORMAT.md the same words): the seconds a task on node k spends fetching its input with no other
 * transfer on the links, in slots. A priced plan's `fetchSlots` must be at least this. The evaluator checks it
 * with this module, and everything else that needs the figure (strategies pricing their plans, the simulator's
 * replay) imports it from here, so there is one computation of it, the one check-plan.py mirrors.
 *
 * transfer(mb, a, b) is 0 when a = b, else mb * 8 / the smallest of a's and b's `bandwidthMbps` and, with
 * `network`, `intraRackMbps` when they share a rack, `interRackMbps` otherwise (no rate given at all: 0; the
 * same path rate the simulator moves data at, network/links.ts). The seconds of task t of stage s on node k are
 *  - its block read, when s gives `blocks` and `inputMB`: 0 when k holds a replica, else the smallest
 *    transfer(inputMB, holder, k) over the holders (a stage without `blocks` reads where the scheduler placed
 *    its input: 0);
 *  - plus, for each stage p in s's `after` that gives `outputMB`, the sum over p's tasks i of
 *    transfer(outputMB(p) / tasks(s), node of i, k): one transfer after another on k's own link.
 * In slots: ceil(seconds / slotSeconds - 1e-9), 0 when nothing moves.
 */
export class LeastFetch {
  private readonly bandwidthMbps: (number | undefined)[];

  constructor(private readonly model: Model) {
    this.bandwidthMbps = model.doc.nodes.map((n) => n.bandwidthMbps);
  }

  /** transfer(mb, from, to) of the specification, in seconds. */
  transferSeconds(mb: number, from: number, to: number): number {
    return from === to ? 0 : pathSeconds(this.model, this.bandwidthMbps, mb, from, to);
  }

  /** Seconds global task `i` spends reading its input block on node `k` (0 for a stage without `blocks` or `inputMB`). */
  blockSeconds(i: number, k: number): number {
    const s = this.model.stages[this.model.taskStage[i]];
    if (!s.blocks || !(s.inputMB > 0)) return 0;
    let least = Infinity;
    for (const holder of s.blocks[this.model.taskOrdinal[i]]) {
      if (holder === k) return 0;
      least = Math.min(least, this.transferSeconds(s.inputMB, holder, k));
    }
    return least === Infinity ? 0 : least;
  }

  /**
   * The least fetch time in seconds of global task `i` on node `k`, its predecessors' tasks on the nodes
   * `nodeOf` gives (indexed by global task; a negative entry: a task placed nowhere, which sends nothing).
   * Summed in the specification's order (the block, then each stage of `after`, task by task), as
   * check-plan.py sums it, so both round alike.
   */
  seconds(i: number, k: number, nodeOf: ArrayLike<number>): number {
    return this.addShuffle(this.blockSeconds(i, k), this.model.taskStage[i], k, nodeOf);
  }

  /** The least fetch time of global task `i` on node `k` in slots (see seconds()). */
  slots(i: number, k: number, nodeOf: ArrayLike<number>): number {
    return fetchSlotsOf(this.seconds(i, k, nodeOf), this.model.slotSeconds);
  }

  /**
   * The least fetch slots of every task `nodeOf` places (-1 for the others), for a whole plan at once. A task
   * that reads no block remotely fetches what every other such task of its stage on its node fetches, so that
   * sum is made once per stage and node: a reduce stage of r tasks after m maps costs m per node, not r x m.
   */
  plan(nodeOf: ArrayLike<number>): Int32Array {
    const { model } = this;
    const out = new Int32Array(model.nTasks).fill(-1);
    const shuffled = new Map<number, number>(); // stage * K + node -> slots of a task with no block to read
    for (let i = 0; i < model.nTasks; i++) {
      const k = nodeOf[i];
      if (k < 0) continue;
      const block = this.blockSeconds(i, k);
      if (block > 0) {
        out[i] = fetchSlotsOf(this.addShuffle(block, model.taskStage[i], k, nodeOf), model.slotSeconds);
        continue;
      }
      const key = model.taskStage[i] * model.K + k;
      let slots = shuffled.get(key);
      if (slots === undefined) {
        slots = fetchSlotsOf(this.addShuffle(0, model.taskStage[i], k, nodeOf), model.slotSeconds);
        shuffled.set(key, slots);
      }
      out[i] = slots;
    }
    return out;
  }

  /** The least seconds of stage g's shuffle onto node k alone (a task of g that reads no block remotely fetches this). */
  shuffleSeconds(g: number, k: number, nodeOf: ArrayLike<number>): number {
    return this.addShuffle(0, g, k, nodeOf);
  }

  /** `seconds` plus the shuffle of stage g onto node k: each predecessor with output sends 1/tasks of every task's. */
  private addShuffle(seconds: number, g: number, k: number, nodeOf: ArrayLike<number>): number {
    const s = this.model.stages[g];
    for (const p of s.preds) {
      const ps = this.model.stages[p];
      if (!(ps.outputMB > 0)) continue;
      const share = ps.outputMB / s.tasks;
      for (let q = ps.firstTask; q < ps.firstTask + ps.tasks; q++) if (nodeOf[q] >= 0) seconds += this.transferSeconds(share, nodeOf[q], k);
    }
    return seconds;
  }
}

/** Seconds of fetching in whole slots: ceil(seconds / slotSeconds - 1e-9), 0 when nothing moves. */
export function fetchSlotsOf(seconds: number, slotSeconds: number): number {
  return seconds > 0 ? Math.max(0, Math.ceil(seconds / slotSeconds - 1e-9)) : 0;
}
