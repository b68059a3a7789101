import { ValidationError } from './errors';
import { compileFrozen, frozenConsistencyIssues, FrozenModel } from './frozen';
import { validateInstance } from './validate';
import { InstanceDoc, NetworkSpec } from './types';

/** Tolerance of capacity checks (FORMAT.md: demands sum to at most available + 1e-9). */
export const CAPACITY_EPS = 1e-9;
export const NO_TASK_LIMIT = 0x3fffffff;

export interface StageModel {
  id: string;
  job: number;
  tasks: number;
  /** Global index of the stage's first task; its tasks are firstTask .. firstTask + tasks - 1. */
  firstTask: number;
  demand: Float64Array; // per metric
  /** Duration in slots on each node (FORMAT.md derived quantity). */
  dur: Int32Array;
  /** GFLOP per task, or null for a fixed-duration stage. */
  work: number | null;
  /** Seconds per task on every node, or null for a work-based stage. */
  durationSeconds: number | null;
  minDur: number;
  preds: number[]; // global stage indices
  succs: number[];
  inputMB: number;
  /** Output of each task in MB (0 when not given). */
  outputMB: number;
  /** Per task of the stage, the nodes holding a replica of its input block; null when the instance does not say (every node is local). */
  blocks: Int32Array[] | null;
}

export interface JobModel {
  id: string;
  customer: string;
  release: number;
  /** -1 when the job has no deadline. */
  deadline: number;
  revenueOnTime: number;
  revenueLate: number;
  hasRevenue: boolean;
  replication: number;
  /** Global stage indices in a topological order of the stage graph. */
  stages: number[];
  firstTask: number;
  taskCount: number;
}

/**
 * An instance compiled into flat arrays: what every strategy, bound and the evaluator work on.
 * Tasks are numbered globally, job by job and, inside a job, stage by stage in topological order,
 * so a job's tasks form one contiguous range.
 */
export interface Model {
  doc: InstanceDoc;
  name: string;
  T: number;
  slotSeconds: number;
  metrics: string[];
  M: number;
  K: number;
  nodeIds: string[];
  nodeIndex: Map<string, number>;
  /** available(k,m,t) at avail[k][m * T + t] (Salamander Eq. 1). */
  avail: Float64Array[];
  capacity: Float64Array[]; // [k][m]
  speed: Float64Array;
  maxTasks: Int32Array; // NO_TASK_LIMIT where not given
  /**
   * Tasks node k may run at slot t, at taskLimit[k][t]: maxTasks less what `reserved` holds (its `tasks`),
   * NO_TASK_LIMIT where the node gives no maxTasks. Equal to maxTasks at every slot without `reserved`.
   */
  taskLimit: Int32Array[];
  racks: string[];
  /** Each node's flavour ('' when not given). */
  flavors: string[];
  /** Intra- and inter-rack bandwidth; null when the instance gives none. */
  network: NetworkSpec | null;
  /**
   * Plans price transfers (FORMAT.md, Transfers priced in plans): each task's fetch is planned before its
   * compute. True when some task may have to fetch something that takes time (movesData): a rate is given
   * (`network`, a node's `bandwidthMbps`) and a stage reads `blocks` of some `inputMB`, or writes `outputMB`
   * that a later stage reads. A solve that asks to ignore the network plans on ignoringTransfers(model).
   */
  pricesTransfers: boolean;
  jobs: JobModel[];
  jobIndex: Map<string, number>;
  stages: StageModel[];
  /** `${jobId}\u0000${stageId}` -> global stage index */
  stageIndex: Map<string, number>;
  nTasks: number;
  taskStage: Int32Array;
  taskJob: Int32Array;
  /** Index of the task within its stage (the plan's `task`). */
  taskOrdinal: Int32Array;
  /** The instance's `frozen`: a running plan re-planned from its nowSlot (model/frozen.ts); null without. */
  frozen: FrozenModel | null;
}

export function stageKey(job: string, stage: string): string {
  return `${job}\u0000${stage}`;
}

/** Validates a raw document and compiles it. Throws ValidationError naming every problem. */
export function loadInstance(raw: unknown): Model {
  const model = compile(validateInstance(raw));
  const frozenIssues = frozenConsistencyIssues(model, NO_TASK_LIMIT, CAPACITY_EPS);
  if (frozenIssues.length > 0) throw new ValidationError('instance', frozenIssues);
  return model;
}

/** Seconds one task of the stage computes on a node of `speed` (work / speed, or its fixed duration). */
export function taskSeconds(stage: Pick<StageModel, 'work' | 'durationSeconds'>, speed: number): number {
  return stage.work !== null ? stage.work / speed : stage.durationSeconds!;
}

export function durationSlots(secondsOrWork: number, isWork: boolean, speed: number, slotSeconds: number): number {
  const secs = isWork ? secondsOrWork / speed : secondsOrWork;
  return Math.max(1, Math.ceil(secs / slotSeconds - 1e-9));
}

export function compile(doc: InstanceDoc): Model {
  const T = doc.horizon.slots;
  const slotSeconds = doc.horizon.slotSeconds;
  const metrics = doc.metrics;
  const M = metrics.length;
  const K = doc.nodes.length;
  const nodeIds = doc.nodes.map((n) => n.id);
  const nodeIndex = new Map(nodeIds.map((id, k) => [id, k]));
  const speed = new Float64Array(K);
  const maxTasks = new Int32Array(K);
  const capacity: Float64Array[] = [];
  const avail: Float64Array[] = [];
  const taskLimit: Int32Array[] = [];
  const margin = metrics.map((m) => own(doc.safetyMargin, m) ?? 0);
  doc.nodes.forEach((n, k) => {
    speed[k] = n.speed ?? 1;
    maxTasks[k] = n.maxTasks ?? NO_TASK_LIMIT;
    const cap = new Float64Array(M);
    const av = new Float64Array(M * T);
    metrics.forEach((m, mi) => {
      cap[mi] = own(n.capacity, m) ?? 0;
      const series = own(own(doc.usage, n.id), m);
      for (let t = 0; t < T; t++) {
        const u = series && t < series.length ? series[t] : 0;
        av[mi * T + t] = cap[mi] * Math.max(0, 1 - u - margin[mi]);
      }
      // What committed plans of other batches hold comes off what this one may use (FORMAT.md: reserved).
      const held = own(own(doc.reserved, n.id), m);
      if (held) for (let t = 0; t < T && t < held.length; t++) av[mi * T + t] = Math.max(0, av[mi * T + t] - held[t]);
    });
    capacity.push(cap);
    avail.push(av);
    const limit = new Int32Array(T).fill(maxTasks[k]);
    const heldTasks = own(own(doc.reserved, n.id), 'tasks');
    if (heldTasks && maxTasks[k] !== NO_TASK_LIMIT) for (let t = 0; t < T && t < heldTasks.length; t++) limit[t] = maxTasks[k] - heldTasks[t];
    taskLimit.push(limit);
  });

  const jobs: JobModel[] = [];
  const stages: StageModel[] = [];
  const stageIndex = new Map<string, number>();
  const jobIndex = new Map<string, number>();
  let nTasks = 0;
  doc.jobs.forEach((j, ji) => {
    jobIndex.set(j.id, ji);
    const local = new Map(j.stages.map((s, si) => [s.id, si]));
    const order = topoOrder(j.stages.map((s) => (s.after ?? []).map((a) => local.get(a)!)));
    const base = stages.length;
    const globalOf = new Int32Array(j.stages.length);
    order.forEach((si, pos) => (globalOf[si] = base + pos));
    const jobFirst = nTasks;
    for (const si of order) {
      const s = j.stages[si];
      const demand = new Float64Array(M);
      metrics.forEach((m, mi) => (demand[mi] = own(s.demand, m) ?? 0));
      const dur = new Int32Array(K);
      let minDur = Infinity;
      const isWork = s.work !== undefined && s.work !== null;
      for (let k = 0; k < K; k++) {
        dur[k] = durationSlots(isWork ? s.work! : s.durationSeconds!, isWork, speed[k], slotSeconds);
        if (dur[k] < minDur) minDur = dur[k];
      }
      const g = stages.length;
      stageIndex.set(stageKey(j.id, s.id), g);
      stages.push({
        id: s.id,
        job: ji,
        tasks: s.tasks,
        firstTask: nTasks,
        demand,
        dur,
        work: isWork ? s.work! : null,
        durationSeconds: isWork ? null : s.durationSeconds!,
        minDur,
        preds: (s.after ?? []).map((a) => globalOf[local.get(a)!]),
        succs: [],
        inputMB: s.inputMB ?? 0,
        outputMB: s.outputMB ?? 0,
        blocks: s.blocks ? s.blocks.map((replicas) => Int32Array.from(replicas, (n) => nodeIndex.get(n)!)) : null,
      });
      nTasks += s.tasks;
    }
    for (let g = base; g < stages.length; g++) for (const p of stages[g].preds) stages[p].succs.push(g);
    jobs.push({
      id: j.id,
      customer: j.customer ?? '',
      release: j.releaseSlot ?? 0,
      deadline: j.deadlineSlot ?? -1,
      revenueOnTime: j.revenue?.onTime ?? 0,
      revenueLate: j.revenue?.late ?? 0,
      hasRevenue: j.revenue !== undefined,
      replication: j.replication ?? 3,
      stages: order.map((_, pos) => base + pos),
      firstTask: jobFirst,
      taskCount: nTasks - jobFirst,
    });
  });

  const taskStage = new Int32Array(nTasks);
  const taskJob = new Int32Array(nTasks);
  const taskOrdinal = new Int32Array(nTasks);
  stages.forEach((s, g) => {
    for (let i = 0; i < s.tasks; i++) {
      taskStage[s.firstTask + i] = g;
      taskJob[s.firstTask + i] = s.job;
      taskOrdinal[s.firstTask + i] = i;
    }
  });

  return {
    doc,
    name: doc.name,
    T,
    slotSeconds,
    metrics,
    M,
    K,
    nodeIds,
    nodeIndex,
    avail,
    capacity,
    speed,
    maxTasks,
    taskLimit,
    racks: doc.nodes.map((n) => n.rack ?? ''),
    flavors: doc.nodes.map((n) => n.flavor ?? ''),
    network: doc.network ?? null,
    pricesTransfers: movesData(doc),
    jobs,
    jobIndex,
    stages,
    stageIndex,
    nTasks,
    taskStage,
    taskJob,
    taskOrdinal,
    frozen: compileFrozen(doc, { nTasks, nodeIndex, stageIndex, stages, jobCount: jobs.length }),
  };
}

/** The instance says something about moving data: `network`, a node's `bandwidthMbps`, a stage's `blocks` or `outputMB`. */
export function hasNetworkFields(doc: InstanceDoc): boolean {
  return (
    doc.network !== undefined ||
    doc.nodes.some((n) => n.bandwidthMbps !== undefined) ||
    doc.jobs.some((j) => j.stages.some((s) => s.blocks !== undefined || s.outputMB !== undefined))
  );
}

/**
 * Some task may have to fetch something that takes time: a rate is given (`network` or a node's
 * `bandwidthMbps`; with none, data moves instantly) and some stage reads `blocks` of `inputMB` > 0 (a task away
 * from its block reads it remotely) or writes `outputMB` > 0 that a later stage reads (the shuffle). An instance
 * with links but nothing to move on them (the ephemeral clusters' `bandwidthMbps` alone) plans as before.
 */
export function movesData(doc: InstanceDoc): boolean {
  const rate = doc.network !== undefined || doc.nodes.some((n) => n.bandwidthMbps !== undefined);
  if (!rate) return false;
  const read = new Set(doc.jobs.flatMap((j) => j.stages.flatMap((s) => (s.after ?? []).map((p) => `${j.id}\u0000${p}`))));
  return doc.jobs.some((j) => j.stages.some((s) => (s.blocks !== undefined && (s.inputMB ?? 0) > 0) || ((s.outputMB ?? 0) > 0 && read.has(`${j.id}\u0000${s.id}`))));
}

/** The same model planned with compute alone (a solve's `transfers: "ignored"`): no strategy prices a fetch. */
export function ignoringTransfers(model: Model): Model {
  return model.pricesTransfers ? { ...model, pricesTransfers: false } : model;
}

/** Kahn's algorithm; `preds[i]` lists the predecessors of i. Input is known to be acyclic. */
function topoOrder(preds: number[][]): number[] {
  const n = preds.length;
  const indeg = new Int32Array(n);
  const succs: number[][] = preds.map(() => []);
  preds.forEach((ps, i) => ps.forEach((p) => (succs[p].push(i), indeg[i]++)));
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (indeg[i] === 0) out.push(i);
  for (let h = 0; h < out.length; h++) for (const s of succs[out[h]]) if (--indeg[s] === 0) out.push(s);
  return out;
}

/** obj[key] only when obj has it as its own property: a metric named "constructor" must not hit Object.prototype. */
function own<V>(obj: Record<string, V> | undefined, key: string): V | undefined {
  return obj !== undefined && Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}
