import { CAPACITY_EPS, Model } from '../../model/model';
import { Random } from '../../random';
import { Profile } from '../../schedule/profile';
import { buildFromTaskOrder } from '../../schedule/sgs';
import { Schedule, better } from '../../schedule/schedule';

/**
 * Forward-backward improvement (double justification, Valls et al. 2005): shift every task as late as
 * possible in decreasing order of end, then as early as possible in increasing order of the new starts.
 * It never loses a job and often shortens the makespan; returns the better of the input and the result.
 * Both passes are full schedule constructions (~1 s on 7,000 tasks x 100 nodes): when `stop` says so
 * it gives up and returns the input.
 */
export function justify(model: Model, schedule: Schedule, rng: Random, stop: () => boolean = never): Schedule {
  const right = rightJustify(model, schedule, stop);
  if (!right) return schedule;
  const order = tasksBy(model, right, (i) => right.start[i], rng);
  const skip = new Uint8Array(model.jobs.length);
  model.jobs.forEach((_, j) => (skip[j] = schedule.accepted[j] ? 0 : 1));
  const left = buildFromTaskOrder(model, order, null, skip, stop);
  if (!left) return schedule;
  return better(left.scheduledTasks(), left.makespan(), schedule.scheduledTasks(), schedule.makespan()) ? left : schedule;
}

function tasksBy(model: Model, s: Schedule, key: (i: number) => number, rng: Random): Int32Array {
  const tasks: number[] = [];
  for (let i = 0; i < model.nTasks; i++) if (s.node[i] >= 0) tasks.push(i);
  rng.shuffle(tasks); // random tie-breaks diversify repeated justifications
  tasks.sort((a, b) => key(a) - key(b));
  const out = new Int32Array(model.nTasks);
  out.set(tasks);
  let n = tasks.length;
  for (let i = 0; i < model.nTasks; i++) if (s.node[i] < 0) out[n++] = i;
  return out;
}

const never = () => false;

/** Every task as late as possible before the makespan, latest-ending first; null if one cannot move or on `stop`. */
function rightJustify(model: Model, s: Schedule, stop: () => boolean): Schedule | null {
  const { T, M, K } = model;
  const ms = s.makespan();
  const out = new Schedule(model);
  out.accepted.set(s.accepted);
  const profile = new Profile(model);
  const stageMinStart = new Int32Array(model.stages.length).fill(T);
  // upper[g * K + k]: no task of stage g fits on node k starting later. A successor's tasks end after
  // all of g's, so they are placed first and g's latest finish is fixed by the time g's tasks come; as
  // usage only grows, identical tasks need not rescan the slots their siblings were refused.
  const upper = new Int32Array(model.stages.length * K).fill(T);
  const tasks: number[] = [];
  for (let i = 0; i < model.nTasks; i++) if (s.node[i] >= 0) tasks.push(i);
  tasks.sort((a, b) => s.end(b) - s.end(a));
  for (let x = 0; x < tasks.length; x++) {
    if ((x & 31) === 31 && stop()) return null;
    const i = tasks[x];
    const g = model.taskStage[i];
    const st = model.stages[g];
    const release = model.jobs[st.job].release;
    let lft = ms;
    for (const q of st.succs) lft = Math.min(lft, stageMinStart[q]);
    let bestK = -1;
    let bestT = -1;
    for (let k = 0; k < K; k++) {
      const d = st.dur[k];
      // Only a strictly later start than the best so far can win (ties go to the lower node).
      const lo = Math.max(release, bestT + 1);
      const hi = Math.min(lft - d, upper[g * K + k]);
      if (hi < lo) continue;
      // Scan backwards for the latest run of d fitting slots starting in [lo, hi].
      let runEnd = hi + d;
      let found = -1;
      for (let t = runEnd - 1; runEnd - d >= lo; t--) {
        let ok = profile.count[k][t] < model.maxTasks[k];
        for (let m = 0; m < M && ok; m++) {
          const q = st.demand[m];
          if (q !== 0 && profile.used[k][m * T + t] + q > model.avail[k][m * T + t] + CAPACITY_EPS) ok = false;
        }
        if (!ok) runEnd = t;
        else if (runEnd - t >= d) {
          found = t;
          break;
        }
      }
      upper[g * K + k] = found >= 0 ? found : lo - 1;
      if (found >= 0) (bestT = found), (bestK = k);
    }
    if (bestK < 0) return null;
    profile.add(bestK, g, bestT);
    out.node[i] = bestK;
    out.start[i] = bestT;
    if (bestT < stageMinStart[g]) stageMinStart[g] = bestT;
  }
  return out;
}

/**
 * The schedule's start order with a few random adjacent swaps, decoded and justified: a kick for the
 * local search that keeps every job of the schedule (falls back to the schedule itself otherwise, or
 * when `stop` interrupts the decoding).
 */
export function perturb(model: Model, schedule: Schedule, rng: Random, stop: () => boolean = never): Schedule {
  const order = tasksBy(model, schedule, (i) => schedule.start[i], rng);
  const n = schedule.scheduledTasks();
  if (n < 2) return schedule;
  const swaps = 1 + rng.int(Math.max(1, Math.ceil(n / 20)));
  for (let x = 0; x < swaps; x++) {
    const p = rng.int(n - 1);
    const t = order[p];
    order[p] = order[p + 1];
    order[p + 1] = t;
  }
  const skip = new Uint8Array(model.jobs.length);
  model.jobs.forEach((_, j) => (skip[j] = schedule.accepted[j] ? 0 : 1));
  const decoded = buildFromTaskOrder(model, order, null, skip, stop);
  if (!decoded || decoded.scheduledTasks() < n) return schedule;
  return justify(model, decoded, rng, stop);
}
