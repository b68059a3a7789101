import { Model } from '../model/model';
import { PlacementDoc } from '../model/types';
import { Schedule } from '../schedule/schedule';

/**
 * Scheduler-driven data placement (Salamander III-C): each scheduled task's chunk goes to the node that
 * runs it, so every task is local; `replication - 1` further replicas go to the nodes next best for that
 * task should it have to be relaunched: fastest for the task first, then the same rack as the primary
 * (cheap transfers), then the most free capacity when the task starts. A stage whose blocks already live
 * somewhere (`blocks` in the instance) keeps them there: its placement is the given replicas.
 */
export function placeChunks(model: Model, schedule: Schedule): PlacementDoc[] {
  const out: PlacementDoc[] = [];
  const { T, M } = model;
  const fastest = new FastestNodes(model);
  const taken: number[] = [];
  // Free share of node k at slot t (summed over metrics): a replica's last tie-break.
  const score = (k: number, t: number) => {
    let free = 0;
    for (let m = 0; m < M; m++) free += model.avail[k][m * T + t] / Math.max(1e-9, model.capacity[k][m] || 1);
    return free;
  };
  for (let i = 0; i < model.nTasks; i++) {
    const k0 = schedule.node[i];
    if (k0 < 0) continue;
    const g = model.taskStage[i];
    const s = model.stages[g];
    const job = model.jobs[s.job];
    if (s.blocks) {
      out.push({ job: job.id, stage: s.id, task: model.taskOrdinal[i], nodes: Array.from(s.blocks[model.taskOrdinal[i]], (k) => model.nodeIds[k]) });
      continue;
    }
    const replicas = Math.min(job.replication, model.K);
    const nodes = [model.nodeIds[k0]];
    if (replicas > 1) {
      const t = schedule.start[i];
      const rack = model.racks[k0];
      // The next best nodes in the order (duration, same rack as the primary, free share, index), picked one by
      // one: duration comes first, so each pick is the best of the fastest group with a node left, and only
      // that group is looked at (on 1,000 nodes of 13 configurations, a 13th of them, not all K per task).
      const order = fastest.of(s.dur);
      taken.length = 0;
      taken.push(k0);
      let from = 0;
      for (let r = 0; r < replicas - 1; r++) {
        let pick = -1;
        let pickScore = 0;
        while (pick < 0 && from < order.length) {
          const end = groupEnd(order, s.dur, from);
          for (let q = from; q < end; q++) {
            const k = order[q];
            if (taken.includes(k)) continue;
            if (pick < 0) {
              pick = k;
              pickScore = score(k, t);
              continue;
            }
            const sameK = model.racks[k] === rack;
            const samePick = model.racks[pick] === rack;
            if (sameK !== samePick) {
              if (sameK) (pick = k), (pickScore = score(k, t));
              continue;
            }
            const sk = score(k, t);
            // Equal shares keep the lower index, which comes first in the group.
            if (sk > pickScore) (pick = k), (pickScore = sk);
          }
          // A group with a node left gave this pick; the next pick looks at it again.
          if (pick < 0) from = end;
        }
        taken.push(pick);
        nodes.push(model.nodeIds[pick]);
      }
    }
    out.push({ job: job.id, stage: s.id, task: model.taskOrdinal[i], nodes });
  }
  return out;
}

/** The end of the group of equally fast nodes that starts at `from` in `order`. */
function groupEnd(order: Int32Array, dur: Int32Array, from: number): number {
  let end = from + 1;
  while (end < order.length && dur[order[end]] === dur[order[from]]) end++;
  return end;
}

/** Per durations vector (one per stage shape), the nodes by duration, then index; made once per vector. */
class FastestNodes {
  private readonly byKey = new Map<string, Int32Array>();
  private readonly byArray = new Map<Int32Array, Int32Array>();

  constructor(private readonly model: Model) {}

  of(dur: Int32Array): Int32Array {
    let order = this.byArray.get(dur);
    if (order) return order;
    const key = dur.join(',');
    order = this.byKey.get(key);
    if (!order) {
      order = Int32Array.from({ length: this.model.K }, (_, k) => k).sort((a, b) => dur[a] - dur[b] || a - b);
      this.byKey.set(key, order);
    }
    this.byArray.set(dur, order);
    return order;
  }
}
