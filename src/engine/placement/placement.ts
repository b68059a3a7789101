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
  const { T, M, K } = model;
  const score = new Float64Array(K);
  const taken = new Uint8Array(K);
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
    const replicas = Math.min(job.replication, K);
    const nodes = [model.nodeIds[k0]];
    if (replicas > 1) {
      const t = schedule.start[i];
      for (let k = 0; k < K; k++) {
        let free = 0;
        for (let m = 0; m < M; m++) free += model.avail[k][m * T + t] / Math.max(1e-9, model.capacity[k][m] || 1);
        score[k] = free;
      }
      const ahead = (a: number, b: number) =>
        s.dur[a] - s.dur[b] ||
        Number(model.racks[b] === model.racks[k0]) - Number(model.racks[a] === model.racks[k0]) ||
        score[b] - score[a] ||
        a - b;
      // The first replicas - 1 of the other nodes in that order, picked one by one: sorting all K
      // nodes for every task took ~0.1 s on 7,000 tasks x 100 nodes, a visible part of short budgets.
      taken.fill(0);
      taken[k0] = 1;
      for (let r = 0; r < replicas - 1; r++) {
        let pick = -1;
        for (let k = 0; k < K; k++) if (!taken[k] && (pick < 0 || ahead(k, pick) < 0)) pick = k;
        taken[pick] = 1;
        nodes.push(model.nodeIds[pick]);
      }
    }
    out.push({ job: job.id, stage: s.id, task: model.taskOrdinal[i], nodes });
  }
  return out;
}
