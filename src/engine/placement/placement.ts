import { Model } from '../model/model';
import { PlacementDoc } from '../model/types';
import { Schedule } from '../schedule/schedule';

/**
 * Scheduler-driven data placement (Salamander III-C): each scheduled task's chunk goes to the node that
 * runs it, so every task is local; `replication - 1` further replicas go to the nodes next best for that
 * task should it have to be relaunched: fastest for the task first, then the same rack as the primary
 * (cheap transfers), then the most free capacity when the task starts.
 */
export function placeChunks(model: Model, schedule: Schedule): PlacementDoc[] {
  const out: PlacementDoc[] = [];
  const { T, M, K } = model;
  for (let i = 0; i < model.nTasks; i++) {
    const k0 = schedule.node[i];
    if (k0 < 0) continue;
    const g = model.taskStage[i];
    const s = model.stages[g];
    const job = model.jobs[s.job];
    const replicas = Math.min(job.replication, K);
    const nodes = [model.nodeIds[k0]];
    if (replicas > 1) {
      const t = schedule.start[i];
      const score = (k: number) => {
        let free = 0;
        for (let m = 0; m < M; m++) free += model.avail[k][m * T + t] / Math.max(1e-9, model.capacity[k][m] || 1);
        return free;
      };
      const others: number[] = [];
      for (let k = 0; k < K; k++) if (k !== k0) others.push(k);
      others.sort(
        (a, b) =>
          s.dur[a] - s.dur[b] ||
          Number(model.racks[b] === model.racks[k0]) - Number(model.racks[a] === model.racks[k0]) ||
          score(b) - score(a) ||
          a - b,
      );
      for (let r = 0; r < replicas - 1; r++) nodes.push(model.nodeIds[others[r]]);
    }
    out.push({ job: job.id, stage: s.id, task: model.taskOrdinal[i], nodes });
  }
  return out;
}
