/** JSON shapes of `fallow.instance/v1` and `fallow.plan/v1` (see FORMAT.md in the docs). */

export const INSTANCE_FORMAT = 'fallow.instance/v1';
export const PLAN_FORMAT = 'fallow.plan/v1';
/** The one value of a plan's `transfers` (docs/FORMAT.md, Transfers priced in plans). */
export const TRANSFERS_PRICED = 'priced';

export interface NodeSpec {
  id: string;
  rack?: string;
  flavor?: string;
  capacity: Record<string, number>;
  speed?: number;
  maxTasks?: number;
  bandwidthMbps?: number;
  costPerHour?: number;
  /**
   * An ephemeral node a provisioning policy leases and releases while a workload runs (POSUM): down until
   * leased, up `startupSeconds` after, released only when idle and at least `minLeaseSeconds` after its lease.
   * Plans treat it as any node; online policies use it only when leased.
   */
  lease?: LeaseSpec;
}

export interface LeaseSpec {
  startupSeconds: number;
  minLeaseSeconds: number;
}

export interface StageSpec {
  id: string;
  tasks: number;
  after?: string[];
  demand: Record<string, number>;
  work?: number;
  durationSeconds?: number;
  inputMB?: number;
  /** Where each task's input block already lives: one list of node ids (its replicas) per task (docs/FORMAT.md). */
  blocks?: string[][];
  /** Output of each task in MB (a map's output, read by the reduces after it). */
  outputMB?: number;
  /** Seconds per task when neither work nor durationSeconds is given and the history cannot predict it. */
  defaultDurationSeconds?: number;
}

export interface NetworkSpec {
  intraRackMbps: number;
  interRackMbps: number;
}

export interface JobSpec {
  id: string;
  customer?: string;
  class?: 'batch' | 'deadline';
  releaseSlot?: number;
  deadlineSlot?: number;
  revenue?: { onTime?: number; late?: number };
  replication?: number;
  /** The map and reduce classes the job runs (Hadoop's mapper and reducer): the runtime history is keyed by them. */
  mapClass?: string;
  reduceClass?: string;
  stages: StageSpec[];
}

export interface InstanceDoc {
  format: typeof INSTANCE_FORMAT;
  name: string;
  horizon: { slots: number; slotSeconds: number };
  metrics: string[];
  safetyMargin?: Record<string, number>;
  nodes: NodeSpec[];
  usage?: Record<string, Record<string, number[]>>;
  /**
   * What committed plans of other batches already hold, in absolute amounts per slot: node -> metric (or
   * `tasks`, the task count) -> amounts (missing node, metric or slot = 0). docs/FORMAT.md, Reserved capacity.
   */
  reserved?: Record<string, Record<string, number[]>>;
  /** Bandwidth between two nodes of one rack and of two racks, for remote reads and shuffles. */
  network?: NetworkSpec;
  jobs: JobSpec[];
  /**
   * A running plan re-planned from `nowSlot` on (docs/FORMAT.md, Frozen assignments): the tasks that have started
   * (or ended) stay where they are, every other task starts at or after nowSlot.
   */
  frozen?: FrozenDoc;
  reference?: unknown;
  provenance?: unknown;
}

export interface FrozenDoc {
  nowSlot: number;
  assignments: FrozenAssignmentDoc[];
}

/** A task that started before nowSlot: its node and start (and its fetchSlots when it priced one) are kept. */
export type FrozenAssignmentDoc = AssignmentDoc;

export interface AssignmentDoc {
  job: string;
  stage: string;
  task: number;
  node: string;
  start: number;
  /**
   * Slots the task fetches its input before it computes, holding its demand and task slot meanwhile: given on
   * every assignment of a plan that says `"transfers": "priced"`, an integer >= 0, at least the least fetch time
   * (docs/FORMAT.md, Transfers priced in plans; network/least-fetch.ts).
   */
  fetchSlots?: number;
}

export interface PlacementDoc {
  job: string;
  stage: string;
  task: number;
  nodes: string[];
}

export interface PlanDoc {
  format: typeof PLAN_FORMAT;
  instance: string;
  strategy: string;
  /** Optional addition: `"priced"` when every assignment gives its `fetchSlots`; absent, a task's duration is its compute alone. */
  transfers?: typeof TRANSFERS_PRICED;
  assignments: AssignmentDoc[];
  rejected: string[];
  placement?: PlacementDoc[];
  /** `revenue` (optional addition) is reported by plans solved with the revenue objective. */
  objective: { scheduledTasks: number; makespanSlots: number; revenue?: number };
  /** Optional addition: `revenue` is an upper bound on the revenue of any plan (revenue objective). */
  bound?: { makespanSlots: number; revenue?: number };
  optimal?: boolean;
  /** Optional addition: relative gap (makespan - bound) / bound, 0 when optimal. */
  gap?: number;
  stats?: Record<string, unknown>;
}

/** One problem found in a document, named by its JSON path (`jobs[3].stages[1].after[0]`). */
export interface Issue {
  path: string;
  message: string;
}
