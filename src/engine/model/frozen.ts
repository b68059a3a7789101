import type { InstanceDoc, Issue } from './types';

/**
 * An instance's `frozen` compiled (docs/FORMAT.md, Frozen assignments): the tasks that started before `now`
 * with the node and start they keep. Built by compile(); null on an instance without `frozen`.
 */
export interface FrozenModel {
  now: number;
  /** The frozen tasks' global ids, ascending (a job's earlier stages first). */
  tasks: Int32Array;
  /** Per global task: its frozen node, start and given fetchSlots; -1 when not frozen (fetch: or not given). */
  node: Int32Array;
  start: Int32Array;
  fetch: Int32Array;
  /** Per job: 1 when it has a frozen task (it may not be rejected). */
  jobHas: Uint8Array;
  /** Per stage with a frozen task, its other tasks (global ids, by ordinal); null for a stage with none. */
  free: (Int32Array | null)[];
}

/** What compile() knows when it compiles `frozen`. */
interface Compiled {
  nTasks: number;
  nodeIndex: Map<string, number>;
  stageIndex: Map<string, number>;
  stages: { firstTask: number; tasks: number; job: number }[];
  jobCount: number;
}

export function compileFrozen(doc: InstanceDoc, m: Compiled): FrozenModel | null {
  if (!doc.frozen) return null;
  const node = new Int32Array(m.nTasks).fill(-1);
  const start = new Int32Array(m.nTasks).fill(-1);
  const fetch = new Int32Array(m.nTasks).fill(-1);
  const jobHas = new Uint8Array(m.jobCount);
  const ids: number[] = [];
  for (const a of doc.frozen.assignments) {
    const g = m.stageIndex.get(`${a.job}\u0000${a.stage}`)!;
    const i = m.stages[g].firstTask + a.task;
    node[i] = m.nodeIndex.get(a.node)!;
    start[i] = a.start;
    if (a.fetchSlots !== undefined) fetch[i] = a.fetchSlots;
    jobHas[m.stages[g].job] = 1;
    ids.push(i);
  }
  const free = m.stages.map((s) => {
    let n = 0;
    for (let i = s.firstTask; i < s.firstTask + s.tasks; i++) if (node[i] >= 0) n++;
    if (n === 0) return null;
    const out = new Int32Array(s.tasks - n);
    let q = 0;
    for (let i = s.firstTask; i < s.firstTask + s.tasks; i++) if (node[i] < 0) out[q++] = i;
    return out;
  });
  return { now: doc.frozen.nowSlot, tasks: Int32Array.from(ids).sort(), node, start, fetch, jobHas, free };
}

/** What frozenIssues needs of the compiled model (model.ts's Model has it). */
interface Checked {
  T: number;
  M: number;
  metrics: string[];
  nodeIds: string[];
  avail: Float64Array[];
  taskLimit: Int32Array[];
  maxTasks: Int32Array;
  stages: { id: string; job: number; firstTask: number; tasks: number; dur: Int32Array; demand: Float64Array; preds: number[] }[];
  jobs: { id: string }[];
  taskStage: Int32Array;
  taskOrdinal: Int32Array;
  frozen: FrozenModel | null;
}

/**
 * What no plan can mend about the frozen tasks, once durations are known: a frozen task that starts before a
 * task of a predecessor stage ends (or whose predecessor stage has tasks that have not started), one that runs
 * past the window, and the frozen tasks alone needing more than a node has from nowSlot on (a killed task is
 * not frozen: list it as not started). Lengths are compute plus the fetchSlots given (none: 0).
 */
export function frozenConsistencyIssues(model: Checked, noLimit: number, eps: number): Issue[] {
  const fz = model.frozen;
  if (!fz) return [];
  const issues: Issue[] = [];
  const { T, M } = model;
  const name = (i: number) => {
    const s = model.stages[model.taskStage[i]];
    return `${model.jobs[s.job].id}/${s.id}/${model.taskOrdinal[i]}`;
  };
  const end = (i: number) => fz.start[i] + Math.max(0, fz.fetch[i]) + model.stages[model.taskStage[i]].dur[fz.node[i]];
  const checkedStage = new Set<number>();
  for (const i of fz.tasks) {
    if (issues.length >= 20) break;
    const g = model.taskStage[i];
    if (end(i) > T) issues.push({ path: 'frozen.assignments', message: `frozen task ${name(i)} runs [${fz.start[i]}, ${end(i)}) past the window [0, ${T})` });
    if (checkedStage.has(g)) continue;
    checkedStage.add(g);
    let first = Infinity;
    const s = model.stages[g];
    for (let n = s.firstTask; n < s.firstTask + s.tasks; n++) if (fz.node[n] >= 0) first = Math.min(first, fz.start[n]);
    for (const p of s.preds) {
      const ps = model.stages[p];
      for (let n = ps.firstTask; n < ps.firstTask + ps.tasks; n++) {
        if (fz.node[n] < 0) {
          issues.push({ path: 'frozen.assignments', message: `stage ${model.jobs[s.job].id}/${s.id} has started but task ${name(n)} of the stage before it (${ps.id}) is not frozen: a stage starts after every task of the stages it comes after` });
          break;
        }
        if (end(n) > first) {
          issues.push({ path: 'frozen.assignments', message: `stage ${model.jobs[s.job].id}/${s.id} starts at ${first}, before frozen task ${name(n)} of stage ${ps.id} ends at ${end(n)}` });
          break;
        }
      }
    }
  }
  // The frozen tasks alone, from nowSlot on: per node a difference array of demand and count.
  const K = model.nodeIds.length;
  const diff = new Map<number, Float64Array>();
  for (const i of fz.tasks) {
    const k = fz.node[i];
    const a = Math.max(fz.now, fz.start[i]);
    const b = Math.min(T, end(i));
    if (a >= b) continue;
    let d = diff.get(k);
    if (!d) diff.set(k, (d = new Float64Array((M + 1) * (T + 1))));
    const dem = model.stages[model.taskStage[i]].demand;
    for (let m = 0; m < M; m++) (d[m * (T + 1) + a] += dem[m]), (d[m * (T + 1) + b] -= dem[m]);
    d[M * (T + 1) + a] += 1;
    d[M * (T + 1) + b] -= 1;
  }
  for (let k = 0; k < K; k++) {
    const d = diff.get(k);
    if (!d) continue;
    for (let m = 0; m <= M; m++) {
      let run = 0;
      for (let t = 0; t < T; t++) {
        run += d[m * (T + 1) + t];
        if (t < fz.now) continue;
        const over = m < M ? run > model.avail[k][m * T + t] + 1e-6 * Math.max(1, model.avail[k][m * T + t]) + eps : model.maxTasks[k] !== noLimit && run > model.taskLimit[k][t] + 0.5;
        if (over) {
          const what = m < M ? `metric "${model.metrics[m]}": ${fmt(run)} > available ${fmt(model.avail[k][m * T + t])}` : `${Math.round(run)} tasks > ${model.taskLimit[k][t]} task slots`;
          issues.push({ path: 'frozen.assignments', message: `the frozen tasks alone overload node "${model.nodeIds[k]}" at slot ${t} (${what}); no plan can keep them: a task the QoS killed is not frozen` });
          break;
        }
      }
    }
  }
  return issues;
}

function fmt(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(3);
}
