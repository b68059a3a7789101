import { Model } from '../../model/model';
import { Builder } from '../../schedule/sgs';
import { Schedule } from '../../schedule/schedule';

/**
 * Hadoop's locality-first dispatch (Cuckoo II-B, Salamander II-B) written as a list schedule against the
 * forecast capacity (Profile), so that its result is a feasible plan: jobs FIFO (release, then order),
 * stages in order, tasks in order; each task starts at the earliest slot any node can take it, and goes
 * to a node holding one of its chunk's replicas when one can start it that early (a TaskTracker with a
 * free slot takes a local task first), else to the remote node that starts it earliest (the TaskTracker
 * that frees a slot first takes it and fetches the chunk). Ties: the node that ends the task first, then
 * the replica order / node index. A job with a task that fits nowhere in the window is rejected whole.
 */
export function localityListSchedule(model: Model, accepted: Uint8Array, replicas: readonly (number[] | null)[]): { schedule: Schedule; remote: number } {
  // Its own list places tasks on the profile directly: compute alone here, priced by solve() afterwards (lists/price-schedule.ts).
  const b = new Builder(model, null, 'earliestFinish', false);
  const order = model.jobs.map((_, j) => j).sort((a, c) => model.jobs[a].release - model.jobs[c].release || a - c);
  let remote = 0;
  for (const j of order) {
    if (!accepted[j]) continue;
    let ok = true;
    let jobRemote = 0;
    const job = model.jobs[j];
    for (const g of job.stages) {
      const s = model.stages[g];
      const est = b.earliestStart(g);
      for (let i = s.firstTask; i < s.firstTask + s.tasks && ok; i++) {
        const pick = pickNode(model, b, i, est, replicas[i]);
        if (pick.k < 0) ok = false;
        else {
          b.profile.add(pick.k, g, pick.t);
          b.schedule.node[i] = pick.k;
          b.schedule.start[i] = pick.t;
          const end = pick.t + s.dur[pick.k];
          if (end > b.stageEnd[g]) b.stageEnd[g] = end;
          if (pick.remote) jobRemote++;
        }
      }
      if (!ok) break;
    }
    if (ok) {
      b.schedule.accepted[j] = 1;
      remote += jobRemote;
    } else b.unplaceJob(j);
  }
  return { schedule: b.schedule, remote };
}

interface Pick {
  k: number;
  t: number;
  remote: boolean;
}

function pickNode(model: Model, b: Builder, i: number, est: number, holders: number[] | null): Pick {
  const g = model.taskStage[i];
  const dur = model.stages[g].dur;
  const starts = new Int32Array(model.K);
  let earliest = Infinity;
  for (let k = 0; k < model.K; k++) {
    starts[k] = b.profile.earliestFit(k, g, est, model.T);
    if (starts[k] >= 0 && starts[k] < earliest) earliest = starts[k];
  }
  if (earliest === Infinity) return { k: -1, t: -1, remote: false };
  const best = (cands: Iterable<number>): number => {
    let pick = -1;
    for (const k of cands) if (starts[k] === earliest && (pick < 0 || dur[k] < dur[pick])) pick = k;
    return pick;
  };
  // Locality first: a replica holder that can start it as early as anyone (no chunk: every node is local).
  const local = holders === null ? best(model.nodeIds.keys()) : best(holders);
  if (local >= 0) return { k: local, t: earliest, remote: false };
  return { k: best(model.nodeIds.keys()), t: earliest, remote: true };
}
