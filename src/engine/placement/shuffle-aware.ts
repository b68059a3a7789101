import { Model, taskSeconds } from '../model/model';
import { Profile } from '../schedule/profile';
import { Schedule } from '../schedule/schedule';
import { NodeLinks, pathSeconds } from '../network/links';

/**
 * Shuffle-aware reduce placement, a pass over a finished schedule (Fallow's addition: neither Salamander's
 * solvers nor `ls` model the links). Every task that reads other tasks' output (a reduce) is placed again,
 * the other tasks staying where they are: in the order of the planned starts, each goes to the node and
 * slot where it would end first, counting the earliest slot its predecessors and the node's capacity allow,
 * the time to fetch its share of every predecessor's output over the senders' uplinks and that node's
 * downlink, queued as the simulator queues them (network/links.ts), and its compute there.
 *
 * Why: a schedule made without the links puts the reduces where the forecast has room, often on a few
 * nodes whose downlinks then carry the whole shuffle (bench/SIMULATION.md: a median of 4 nodes for the
 * papers' 40 reduces, against 8 under Hadoop's heartbeats, and the last reduce waiting 3,480 s for its inputs).
 *
 * Capacity and precedence are kept exactly (the evaluator checks the result like any plan); the slot
 * makespan may grow, since the plan's model counts compute only. A schedule whose readers find no room
 * anywhere is left as it was. Returns how many reduces moved (node or slot). A schedule with priced transfers
 * (Schedule.fetch) that has readers is refused: the pass does not price the fetch of the tasks it moves.
 */
export function placeReducesOverLinks(model: Model, schedule: Schedule): number {
  const { K, slotSeconds: S } = model;
  const reads = model.stages.map((st) => st.preds.some((p) => model.stages[p].outputMB > 0));
  if (!reads.some(Boolean)) return 0;
  schedule.refusePriced('the shuffle-aware reduce placement');
  const { node, start, accepted } = schedule;
  const profile = new Profile(model);
  const stageEnd = new Int32Array(model.stages.length);
  /** MB of output each stage's placed tasks write on each node (stage-major). */
  const written = new Float64Array(model.stages.length * K);
  const readers: number[] = [];
  for (let i = 0; i < model.nTasks; i++) {
    if (node[i] < 0 || !accepted[model.taskJob[i]]) continue;
    const g = model.taskStage[i];
    if (reads[g]) readers.push(i);
    else place(i, node[i], start[i]);
  }
  // Stage by stage along the precedence (a reduce after another reduce stage waits for all of it), each stage's tasks in planned order.
  const depth = new Int32Array(model.stages.length).fill(-1);
  const depthOf = (g: number): number => (depth[g] >= 0 ? depth[g] : (depth[g] = model.stages[g].preds.reduce((d, p) => Math.max(d, depthOf(p) + 1), 0)));
  readers.sort((a, b) => depthOf(model.taskStage[a]) - depthOf(model.taskStage[b]) || start[a] - start[b] || a - b);
  const links = new NodeLinks(model.doc.nodes.map((n) => n.bandwidthMbps));
  const chosen: [number, number][] = [];
  for (const i of readers) {
    const g = model.taskStage[i];
    const st = model.stages[g];
    let est = model.jobs[st.job].release;
    for (const p of st.preds) est = Math.max(est, stageEnd[p]);
    let bestK = -1;
    let bestT = -1;
    let bestEnd = Infinity;
    for (let k = 0; k < K; k++) {
      const t = profile.earliestFit(k, g, est, model.T);
      if (t < 0) continue;
      links.begin();
      const end = fetch(g, k, t * S) + taskSeconds(st, model.speed[k]);
      links.undo();
      if (end < bestEnd - 1e-9 || (end <= bestEnd + 1e-9 && t < bestT)) (bestK = k), (bestT = t), (bestEnd = end);
    }
    if (bestK < 0) return 0; // no room left for this reduce anywhere: the schedule stays as it was made
    fetch(g, bestK, bestT * S);
    chosen.push([bestK, bestT]);
    place(i, bestK, bestT);
  }
  let moved = 0;
  readers.forEach((i, n) => {
    const [k, t] = chosen[n];
    if (node[i] !== k || start[i] !== t) moved++;
    node[i] = k;
    start[i] = t;
  });
  return moved;

  function place(i: number, k: number, t: number): void {
    const g = model.taskStage[i];
    const st = model.stages[g];
    profile.add(k, g, t);
    stageEnd[g] = Math.max(stageEnd[g], t + st.dur[k]);
    written[g * K + k] += st.outputMB;
  }

  /** Queues the transfers of stage g's share of its predecessors' output to node k from `at` (seconds); returns when the last arrives. */
  function fetch(g: number, k: number, at: number): number {
    const st = model.stages[g];
    let end = at;
    for (let q = 0; q < K; q++) {
      if (q === k) continue;
      let mb = 0;
      for (const p of st.preds) mb += written[p * K + q];
      if (mb > 0) end = Math.max(end, links.reserve(at, q, k, pathSeconds(model, links.bandwidthMbps, mb / st.tasks, q, k)));
    }
    return end;
  }
}
