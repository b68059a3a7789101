import { batchKpis } from './batch-kpis';
import type { JobOutcome } from './job-outcome';
import { planScore } from './posum-kpi';
import type { PosumScore } from '../evaluate/posum-score';
import { LeastFetch } from '../network/least-fetch';
import { LocalityCounts, localityOf } from './locality';
import { Model, NO_TASK_LIMIT, stageKey } from '../model/model';
import { PLAN_FORMAT, TRANSFERS_PRICED } from '../model/types';
import { jobRevenue } from '../schedule/revenue';
import { isObject, show } from '../model/validate';

/** Same tolerance as tools/check-plan.py, so both checkers give the same verdict on every plan. */
const TOLERANCE_ABS = 1e-9;
const TOLERANCE_REL = 1e-6;
const MAX_LISTED = 200;
/** node[] marks: task not assigned / assigned to a node the instance does not have. */
const UNASSIGNED = -1;
const UNKNOWN_NODE = -2;

export type { JobOutcome } from './job-outcome';

export interface Kpis {
  scheduledTasks: number;
  totalTasks: number;
  makespanSlots: number;
  acceptedJobs: number;
  rejectedJobs: number;
  /**
   * Accepted jobs with a revenue function that ended by their deadline (or have none) / after it: the jobs
   * the revenue is earned on, counted as check-plan.py counts them. Every job's own outcome is in `jobs`.
   */
  onTimeJobs: number;
  lateJobs: number;
  /** Two-stage paper Eq. 2-3: onTime when the job ends by its deadline, late otherwise, 0 when rejected. */
  revenue: number;
  /**
   * Two-stage paper Eq. 9, platform resource utilisation, generalised from identical containers: the mean
   * over nodes and slots of [0, makespan) of the dominant metric's used / available share (a node full
   * on any metric cannot take another container). Cells where the node has nothing available are left out.
   */
  pru: number;
  /** Two-stage paper Eq. 10, job completion rate: accepted jobs ended by their deadline (or with none) / all jobs. */
  jcr: number;
  /** Two-stage paper Eq. 11: onTime amounts earned minus late penalties paid; equal to `revenue`. */
  pr: number;
  /** Per metric: demand-slots used / available-slots over [0, makespan). */
  utilisation: Record<string, number>;
  /** ACO-BP Eq. 2 averaged over nodes and slots of [0, makespan): product over metrics of used / available. */
  meanResourceUtilisation: number;
  /** Tasks whose node holds none of their chunk's replicas (only when the plan has a placement). */
  remoteTasks: number | null;
  /** Where tasks with a known input block (stage `blocks`) ran: node-local, rack-local, remote; null when no stage gives blocks. */
  locality: LocalityCounts | null;
  /** Share of the cluster's capacity the plan's tasks hold, per metric, every 10 s (at least every slot) over [0, makespan). */
  utilisationSeries: { seconds: number[]; used: Record<string, number[]> };
  /** ACO-BP Eq. 2 per node, averaged over the slots of [0, makespan). */
  ruByNode: Record<string, number>;
  /** Jain's fairness index over accepted jobs of (the job's lower bound alone on the cluster) / (its end - release). */
  jainFairness: number;
  /** POSUM's P = (V_D, S_B, C) (Table I): deadline violations, bounded slowdown, node cost (posum-kpi.ts). */
  score: PosumScore;
  jobs: JobOutcome[];
}

export interface Evaluation {
  /** Every constraint of FORMAT.md holds. */
  feasible: boolean;
  /** The plan's `objective` equals what its assignments give. */
  truthful: boolean;
  /** feasible && truthful: what `fallow check` and check-plan.py accept. */
  ok: boolean;
  violations: string[];
  violationCount: number;
  /**
   * The capacity violations as data, in node, slot, metric order (the first MAX_LISTED): what a commit names
   * when a plan no longer fits (`metric` "tasks": the task slots; `available` is then maxTasks less what is reserved).
   */
  overloads: Overload[];
  kpis: Kpis;
}

/** One node, metric (or "tasks") and slot where a plan asks for more than is available. */
export interface Overload {
  node: string;
  metric: string;
  slot: number;
  demand: number;
  available: number;
}

/**
 * The single source of truth on a plan: checks it against the instance from the JSON alone (it trusts
 * nothing a strategy computed) and derives every KPI. Mirrors tools/check-plan.py rule by rule.
 */
export function evaluatePlan(model: Model, rawPlan: unknown): Evaluation {
  const violations: string[] = [];
  let violationCount = 0;
  const overloads: Overload[] = [];
  const overload = (o: Overload) => {
    if (overloads.length < MAX_LISTED) overloads.push(o);
  };
  const bad = (msg: string) => {
    violationCount++;
    if (violations.length < MAX_LISTED) violations.push(msg);
  };
  const { T, M, K, nTasks } = model;
  const plan = (isObject(rawPlan) ? rawPlan : {}) as Record<string, any>;
  // A re-plan (FORMAT.md, Frozen assignments): frozen tasks kept, nothing else before nowSlot, capacity from nowSlot on.
  const frozen = model.frozen;
  const now = frozen ? frozen.now : 0;
  const frozenCheck = (i: number, a: any, p: string) => {
    const f = frozen!;
    const moved = model.nodeIndex.get(a.node) !== f.node[i] || a.start !== f.start[i] || (f.fetch[i] >= 0 && (a.fetchSlots ?? 0) !== f.fetch[i]);
    if (moved) bad(`${p}: frozen task ${taskName(model, i)} moved: node "${a.node}" start ${a.start}${f.fetch[i] >= 0 ? ` fetchSlots ${show(a.fetchSlots)}` : ''}, frozen at node "${model.nodeIds[f.node[i]]}" start ${f.start[i]}${f.fetch[i] >= 0 ? ` fetchSlots ${f.fetch[i]}` : ''}`);
  };
  if (!isObject(rawPlan)) bad('$: the plan must be a JSON object');
  if (plan.format !== PLAN_FORMAT) bad(`format: must be "${PLAN_FORMAT}", got ${show(plan.format)}`);
  // A priced plan (FORMAT.md, Transfers priced in plans) gives each task's fetch slots; another value prices nothing.
  const priced = plan.transfers === TRANSFERS_PRICED;
  if (plan.transfers !== undefined && !priced) bad(`transfers: must be "${TRANSFERS_PRICED}" when given, got ${show(plan.transfers)}`);

  const rejected = new Set<number>();
  const rejectedList = Array.isArray(plan.rejected) ? plan.rejected : plan.rejected === undefined ? [] : null;
  if (rejectedList === null) bad('rejected: must be an array of job ids');
  (rejectedList ?? []).forEach((id: unknown, i: number) => {
    const j = typeof id === 'string' ? model.jobIndex.get(id) : undefined;
    if (j === undefined) bad(`rejected[${i}]: job ${show(id)} is not in the instance`);
    else rejected.add(j);
  });

  const node = new Int32Array(nTasks).fill(UNASSIGNED);
  // Float64, not Int32: a start of 2^32 must stay 2^32 (outside the window), not wrap to slot 0.
  const start = new Float64Array(nTasks);
  /** A priced plan's fetchSlots per task (-1: not an integer >= 0, already reported); null when unpriced. */
  const fetch = priced ? new Float64Array(nTasks) : null;
  const assignments = Array.isArray(plan.assignments) ? plan.assignments : null;
  if (!assignments) bad('assignments: must be an array');
  (assignments ?? []).forEach((a: any, n: number) => {
    const p = `assignments[${n}]`;
    if (!isObject(a)) return bad(`${p}: must be an object`);
    const g = model.stageIndex.get(stageKey(String(a.job), String(a.stage)));
    if (!model.jobIndex.has(a.job)) return bad(`${p}.job: unknown job ${show(a.job)}`);
    if (g === undefined) return bad(`${p}.stage: job "${a.job}" has no stage ${show(a.stage)}`);
    const s = model.stages[g];
    if (!Number.isInteger(a.task) || a.task < 0 || a.task >= s.tasks)
      return bad(`${p}.task: must be an integer in [0, ${s.tasks - 1}], got ${show(a.task)}`);
    if (!Number.isInteger(a.start)) return bad(`${p}.start: must be an integer slot, got ${show(a.start)}`);
    const i = s.firstTask + a.task;
    // As in check-plan.py: a duplicate is reported and the later assignment is the one that counts; a task
    // on an unknown node is reported, still makes its job complete, and is left out of every sum.
    if (node[i] !== UNASSIGNED) bad(`${p}: task ${a.job}/${a.stage}/${a.task} is assigned twice`);
    const k = model.nodeIndex.get(a.node);
    if (k === undefined) bad(`${p}.node: unknown node ${show(a.node)}`);
    if (rejected.has(s.job)) bad(`${p}: job "${a.job}" is both rejected and assigned`);
    node[i] = k ?? UNKNOWN_NODE;
    start[i] = a.start;
    if (frozen && frozen.node[i] >= 0) frozenCheck(i, a, p);
    if (fetch) {
      const f = a.fetchSlots;
      fetch[i] = Number.isInteger(f) && f >= 0 ? f : -1;
      if (fetch[i] < 0) bad(`${p}.fetchSlots: must be an integer >= 0 in a plan with "transfers": "${TRANSFERS_PRICED}", got ${show(f)}`);
    }
  });
  if (frozen) {
    for (const i of frozen.tasks) if (node[i] === UNASSIGNED) bad(`frozen task ${taskName(model, i)} is missing from the plan`);
    for (let i = 0; i < nTasks; i++)
      if (node[i] !== UNASSIGNED && frozen.node[i] < 0 && start[i] < frozen.now) bad(`task ${taskName(model, i)} starts at ${start[i]} before nowSlot ${frozen.now} (only frozen tasks may)`);
    for (const j of rejected) if (frozen.jobHas[j]) bad(`job "${model.jobs[j].id}" has frozen tasks and is rejected`);
  }
  // The least fetch time of every placed task, from where the plan puts its predecessors (check-plan.py's node_of).
  const least = fetch ? new LeastFetch(model).plan(node) : null;

  // Completeness (Eq. 5 all or nothing), release, window and stage precedence, job by job.
  const end = new Float64Array(nTasks);
  const counted = new Uint8Array(nTasks);
  const jobEnd = new Float64Array(model.jobs.length).fill(-1);
  let scheduled = 0;
  let makespan = 0;
  model.jobs.forEach((job, j) => {
    let present = 0;
    for (let i = job.firstTask; i < job.firstTask + job.taskCount; i++) if (node[i] !== UNASSIGNED) present++;
    if (rejected.has(j)) return;
    if (present !== job.taskCount)
      return bad(`job "${job.id}" is neither rejected nor complete: ${present}/${job.taskCount} tasks assigned`);
    for (const g of job.stages) {
      const s = model.stages[g];
      for (let i = s.firstTask; i < s.firstTask + s.tasks; i++) {
        if (node[i] === UNKNOWN_NODE) continue;
        const name = `task ${job.id}/${s.id}/${i - s.firstTask}`;
        // A priced task holds its node from its start through its fetch and its compute; a fetchSlots below the
        // least (or malformed) counts as the least, as check-plan.py counts it.
        let d = s.dur[node[i]];
        if (fetch && least) {
          if (fetch[i] >= 0 && fetch[i] < least[i])
            bad(`${name} on node "${model.nodeIds[node[i]]}": fetchSlots ${fetch[i]} below the least fetch time ${least[i]}`);
          d += Math.max(fetch[i], least[i]);
        }
        end[i] = start[i] + d;
        counted[i] = 1;
        scheduled++;
        if (end[i] > makespan) makespan = end[i];
        if (end[i] > jobEnd[j]) jobEnd[j] = end[i];
        if (start[i] < job.release) bad(`${name} starts at ${start[i]} before the job's release ${job.release}`);
        if (start[i] < 0 || end[i] > T) bad(`${name} runs [${start[i]}, ${end[i]}) outside the window [0, ${T})`);
      }
    }
    for (const g of job.stages) {
      const s = model.stages[g];
      let first = Infinity;
      for (let i = s.firstTask; i < s.firstTask + s.tasks; i++) if (counted[i]) first = Math.min(first, start[i]);
      for (const p of s.preds) {
        const ps = model.stages[p];
        let last = -Infinity;
        for (let i = ps.firstTask; i < ps.firstTask + ps.tasks; i++) if (counted[i]) last = Math.max(last, end[i]);
        if (first < last) bad(`job "${job.id}": stage "${s.id}" starts at ${first} before stage "${ps.id}" ends at ${last}`);
      }
    }
  });

  // Capacity per node, metric and slot (Eq. 6, less what `reserved` holds) and task slots, with difference arrays.
  const diff = Array.from({ length: K }, () => new Float64Array(M * (T + 1)));
  const cnt = Array.from({ length: K }, () => new Int32Array(T + 1));
  const usedArea = new Float64Array(M);
  for (let i = 0; i < nTasks; i++) {
    if (!counted[i]) continue;
    const k = node[i];
    const s = model.stages[model.taskStage[i]];
    const a = Math.max(0, start[i]);
    const b = Math.min(T, end[i]);
    if (a >= b) continue;
    for (let m = 0; m < M; m++) {
      const q = s.demand[m];
      if (q === 0) continue;
      diff[k][m * (T + 1) + a] += q;
      diff[k][m * (T + 1) + b] -= q;
      usedArea[m] += q * (b - a);
    }
    cnt[k][a]++;
    cnt[k][b]--;
  }
  const availArea = new Float64Array(M);
  let ruSum = 0;
  let dominantSum = 0;
  let liveCells = 0;
  const horizonForKpis = Math.min(T, makespan);
  const load = new Float64Array(M);
  const ruNode = new Float64Array(K);
  const slotLoad = new Float64Array(M * horizonForKpis); // the batch's demand per metric and slot, over all nodes
  for (let k = 0; k < K; k++) {
    const av = model.avail[k];
    load.fill(0);
    let running = 0;
    let countReported = false;
    for (let t = 0; t < T; t++) {
      let ru = 1;
      let dominant = 0;
      let live = false;
      for (let m = 0; m < M; m++) {
        load[m] += diff[k][m * (T + 1) + t];
        const avail = av[m * T + t];
        if (t >= now && load[m] > avail + TOLERANCE_REL * Math.max(1, avail) + TOLERANCE_ABS) {
          bad(`node "${model.nodeIds[k]}" metric "${model.metrics[m]}" slot ${t}: demand ${fmt(load[m])} > available ${fmt(avail)}`);
          overload({ node: model.nodeIds[k], metric: model.metrics[m], slot: t, demand: load[m], available: avail });
        }
        if (t < horizonForKpis) {
          availArea[m] += avail;
          // max(0, ...): the running sum of a difference array can end a hair below zero (float residue)
          const share = avail > 0 ? Math.min(1, Math.max(0, load[m]) / avail) : 0;
          slotLoad[m * horizonForKpis + t] += Math.max(0, load[m]);
          ru *= share;
          if (avail > 0) live = true;
          if (share > dominant) dominant = share;
        }
      }
      if (t < horizonForKpis) {
        ruSum += ru;
        ruNode[k] += ru;
        if (live) {
          liveCells++;
          dominantSum += dominant;
        }
      }
      running += cnt[k][t];
      const countOver = t >= now && model.maxTasks[k] !== NO_TASK_LIMIT && running > model.taskLimit[k][t];
      if (countOver) overload({ node: model.nodeIds[k], metric: 'tasks', slot: t, demand: running, available: model.taskLimit[k][t] });
      if (countOver && !countReported) {
        countReported = true; // one message per node, as check-plan.py does
        const held = model.maxTasks[k] - model.taskLimit[k][t];
        bad(`node "${model.nodeIds[k]}" slot ${t}: ${running} tasks > maxTasks ${model.maxTasks[k]}${held > 0 ? ` less ${held} reserved` : ''}`);
      }
    }
  }

  const objective = isObject(plan.objective) ? plan.objective : {};
  let truthful = true;
  if (objective.scheduledTasks !== scheduled) {
    truthful = false;
    bad(`objective.scheduledTasks=${show(objective.scheduledTasks)} but the assignments give ${scheduled}`);
  }
  if (objective.makespanSlots !== makespan) {
    truthful = false;
    bad(`objective.makespanSlots=${show(objective.makespanSlots)} but the assignments give ${makespan}`);
  }
  const bound = isObject(plan.bound) ? plan.bound.makespanSlots : undefined;
  if (bound !== undefined && scheduled > 0 && bound > makespan) {
    truthful = false;
    bad(`bound.makespanSlots=${bound} exceeds the plan's own makespan ${makespan}`);
  }

  const jobs: JobOutcome[] = [];
  let revenue = 0;
  let onTimeJobs = 0;
  let lateJobs = 0;
  let completedByDeadline = 0;
  model.jobs.forEach((job, j) => {
    const accepted = !rejected.has(j) && jobEnd[j] >= 0;
    const endSlot = accepted ? jobEnd[j] : null;
    const deadlineSlot = job.deadline >= 0 ? job.deadline : null;
    const onTime = accepted ? deadlineSlot === null || endSlot! <= deadlineSlot : null;
    const r = accepted ? jobRevenue(job, endSlot!) : 0;
    if (accepted && job.hasRevenue && onTime) onTimeJobs++;
    if (accepted && job.hasRevenue && !onTime) lateJobs++;
    if (accepted && onTime) completedByDeadline++;
    revenue += r;
    jobs.push({ id: job.id, accepted, endSlot, deadlineSlot, onTime, revenue: r });
  });
  // Optional addition to the format: a plan solved for revenue reports it, and must report it truly.
  if (revenueMisreported(objective, revenue)) {
    truthful = false;
    bad(`objective.revenue=${show(objective.revenue)} but the assignments give ${revenue}`);
  }

  let remoteTasks: number | null = null;
  if (Array.isArray(plan.placement)) {
    const holders = new Map<number, Set<string>>();
    for (const p of plan.placement) {
      const g = isObject(p) ? model.stageIndex.get(stageKey(String(p.job), String(p.stage))) : undefined;
      if (g === undefined || !Number.isInteger(p.task) || !Array.isArray(p.nodes)) continue;
      holders.set(model.stages[g].firstTask + p.task, new Set(p.nodes));
    }
    remoteTasks = 0;
    for (let i = 0; i < nTasks; i++)
      if (counted[i] && !holders.get(i)?.has(model.nodeIds[node[i]])) remoteTasks++;
  }

  const utilisation: Record<string, number> = {};
  model.metrics.forEach((m, mi) => (utilisation[m] = availArea[mi] > 0 ? usedArea[mi] / availArea[mi] : 0));
  const feasible = violationCount === 0 || (!truthful && violationCount === countUntruthful(objective, scheduled, makespan, bound, revenue));
  return {
    feasible,
    truthful,
    ok: violationCount === 0,
    violations,
    violationCount,
    overloads,
    kpis: {
      scheduledTasks: scheduled,
      totalTasks: nTasks,
      makespanSlots: makespan,
      acceptedJobs: model.jobs.length - rejected.size,
      rejectedJobs: rejected.size,
      onTimeJobs,
      lateJobs,
      revenue,
      pru: liveCells > 0 ? dominantSum / liveCells : 0,
      jcr: model.jobs.length > 0 ? completedByDeadline / model.jobs.length : 0,
      pr: revenue,
      utilisation,
      meanResourceUtilisation: horizonForKpis > 0 ? ruSum / (K * horizonForKpis) : 0,
      remoteTasks,
      locality: localityOf(model, node, counted),
      ...batchKpis(model, slotLoad, horizonForKpis, ruNode, jobs),
      score: planScore(model, start, end, counted, jobs, makespan),
      jobs,
    },
  };
}

/** How many of the violations are only misreported objective figures. */
function countUntruthful(objective: any, scheduled: number, makespan: number, bound: unknown, revenue: number): number {
  let n = revenueMisreported(objective, revenue) ? 1 : 0;
  if (objective.scheduledTasks !== scheduled) n++;
  if (objective.makespanSlots !== makespan) n++;
  if (typeof bound === 'number' && scheduled > 0 && bound > makespan) n++;
  return n;
}

function revenueMisreported(objective: Record<string, unknown>, revenue: number): boolean {
  if (objective.revenue === undefined) return false;
  const r = objective.revenue;
  return typeof r !== 'number' || Math.abs(r - revenue) > TOLERANCE_REL * Math.max(1, Math.abs(revenue)) + TOLERANCE_ABS;
}

function fmt(x: number): string {
  return Number(x.toPrecision(6)).toString();
}

/** A task as messages name it: job/stage/ordinal. */
function taskName(model: Model, i: number): string {
  const s = model.stages[model.taskStage[i]];
  return `${model.jobs[s.job].id}/${s.id}/${model.taskOrdinal[i]}`;
}
