/**
 * What a running plan has done by now, as the `frozen` of its re-plan (docs/FORMAT.md, Frozen assignments),
 * from the execution events reported on it (started, finished, killed), the plan itself and what the caller
 * says explicitly. Pure: the service reads the events and the plan, this decides what stays.
 *
 * - A task whose last event by now is `started` runs: frozen on that event's node from the slot it started in.
 * - `finished`: frozen on its node, from the slot of its last start before the finish; moved earlier when the
 *   instance's duration would carry it past the slot it really ended in (a frozen task holds its node for its
 *   planned duration, and one that has ended holds nothing from now on). No start reported: it ran as planned
 *   on that node when the plan put it there, else it ended as late as it could.
 * - `killed` (the QoS controller, a lost node): not frozen, planned again; unless the plan (itself a re-plan)
 *   started it again in a later slot before nowSlot with no event since, and `assumeStartedAsPlanned` holds.
 * - No event by now: with `assumeStartedAsPlanned`, a task the plan started before nowSlot is taken to have
 *   started as planned (the farmer reports late, or not at all); without, it is planned again.
 * - An explicit assignment of the caller wins over all of that, as given (the engine checks it).
 *
 * The model (the instance of the re-plan) says how long a task runs, so two corrections keep what is frozen a
 * set some plan can keep: a task's events may name a node the instance no longer has, or a node the cluster's
 * events say is lost while the task runs (`lost`): both run again,
 * and a stage started after a task of an earlier stage that runs again (killed, lost) runs again too (a stage
 * starts after every task of the stages it comes after, and needs their output). A frozen task whose earlier
 * stages' frozen tasks end later by the instance's durations than it started starts at their end when that is
 * no later than nowSlot (the events say the earlier tasks ended sooner), else it runs again after them (a
 * reduce started early, Hadoop's slow start, which Fallow's model does not have); a running task the
 * instance's duration would carry past the window is taken to have started early enough to end with it.
 */
import { Model, stageKey } from '../model/model';
import type { AssignmentDoc, FrozenDoc, PlanDoc } from '../model/types';
import { TRANSFERS_PRICED } from '../model/types';

export type TaskEventType = 'started' | 'finished' | 'killed';

/** One execution event of a task of the plan (what POST /v1/executions/events stored). */
export interface TaskEvent {
  job: string;
  stage: string;
  task: number;
  node: string;
  type: TaskEventType;
  /** When it happened, Unix ms. */
  atMs: number;
}

export interface TaskRef {
  job: string;
  stage: string;
  task: number;
}

export interface FrozenFromEventsInput {
  /** The instance re-planned, compiled without `frozen`: its jobs, stage graph, nodes and durations. */
  model: Model;
  /** The plan re-planned. */
  plan: PlanDoc;
  events: readonly TaskEvent[];
  /** The plan's window on the wall clock: slot t starts at startsAtMs + t * slotSeconds s. */
  window: { startsAtMs: number; slotSeconds: number };
  /** The slot of now: every task not frozen starts at or after it. */
  nowSlot: number;
  /** Events after this instant have not happened yet (Unix ms). */
  nowMs: number;
  assumeStartedAsPlanned: boolean;
  /** The caller's own frozen assignments: they come first, as given, and no event changes them. */
  explicit?: readonly AssignmentDoc[];
  /**
   * Nodes the cluster's events say are lost over [fromMs, toMs) (toMs null: not back), wall clock: a task that
   * runs, or is taken to run as planned, on such a node at some time of a loss is planned again ('node-lost'). Its
   * node stays in the instance, unavailable over the loss (commitments/node-loss.ts), so no plan could keep it there.
   */
  lost?: readonly { node: string; fromMs: number; toMs: number | null }[];
}

/** Why an assignment is frozen. */
export type FrozenSource = 'explicit' | 'running' | 'finished' | 'assumed';

/** Why a task that started is planned again. */
export type RerunReason = 'killed' | 'node-lost' | 'after-rerun' | 'before-predecessors-end';

export interface FrozenFromEvents {
  frozen: FrozenDoc;
  /** Per frozen assignment, in the same order, why it is frozen. */
  sources: FrozenSource[];
  /** Tasks that started by now and are planned again, with why. */
  rerun: (TaskRef & { reason: RerunReason })[];
  /** Frozen starts the events gave that were changed (see the file's comment), with the reason. */
  adjusted: (TaskRef & { from: number; to: number; reason: 'ended-sooner' | 'after-predecessors' | 'within-window' })[];
  /** Events not counted: after now, or of a task the instance does not have. */
  ignoredEvents: number;
}

/** Events of one instant in the order they must have happened: a task starts, then ends or is killed. */
const TYPE_ORDER: Record<TaskEventType, number> = { started: 0, finished: 1, killed: 2 };

interface Derived {
  node: number;
  start: number;
  fetchSlots?: number;
  source: Exclude<FrozenSource, 'explicit'>;
  /** A finished task: the slot it ended by (the end of the slot of its finished event). */
  endedBy?: number;
}

export function frozenFromEvents(input: FrozenFromEventsInput): FrozenFromEvents {
  const { model, plan, window, nowSlot, nowMs } = input;
  const slotMs = window.slotSeconds * 1000;
  /** The slot an instant falls in, within [0, nowSlot] (a start before the window counts from its slot 0). */
  const slotOf = (atMs: number) => Math.min(nowSlot, Math.max(0, Math.floor((atMs - window.startsAtMs) / slotMs + 1e-9)));
  const taskOf = (r: TaskRef): number => {
    const g = model.stageIndex.get(stageKey(r.job, r.stage));
    return g === undefined || !Number.isInteger(r.task) || r.task < 0 || r.task >= model.stages[g].tasks ? -1 : model.stages[g].firstTask + r.task;
  };
  const ref = (i: number): TaskRef => {
    const s = model.stages[model.taskStage[i]];
    return { job: model.jobs[s.job].id, stage: s.id, task: model.taskOrdinal[i] };
  };

  // The plan's node, start and fetch of each task (-1: the plan does not run it).
  const planned = new Int32Array(model.nTasks).fill(-1);
  const plannedStart = new Int32Array(model.nTasks);
  const plannedFetch = new Int32Array(model.nTasks).fill(-1);
  const priced = plan.transfers === TRANSFERS_PRICED;
  for (const a of plan.assignments) {
    const i = taskOf(a);
    const k = model.nodeIndex.get(a.node);
    if (i < 0) continue;
    planned[i] = k ?? -2; // -2: planned on a node the instance no longer has
    plannedStart[i] = a.start;
    if (priced && Number.isInteger(a.fetchSlots)) plannedFetch[i] = a.fetchSlots!;
  }

  // Each task's events by now, in the order they happened.
  let ignoredEvents = 0;
  const byTask = new Map<number, TaskEvent[]>();
  for (const e of input.events) {
    const i = e.atMs <= nowMs ? taskOf(e) : -1;
    if (i < 0) {
      ignoredEvents++;
      continue;
    }
    const list = byTask.get(i);
    if (list) list.push(e);
    else byTask.set(i, [e]);
  }

  const explicit = new Set<number>();
  for (const a of input.explicit ?? []) {
    const i = taskOf(a);
    if (i >= 0) explicit.add(i);
  }

  const derived = new Map<number, Derived>();
  const rerun: FrozenFromEvents['rerun'] = [];
  const adjusted: FrozenFromEvents['adjusted'] = [];
  const lengthOn = (i: number, k: number, fetch: number | undefined) => model.stages[model.taskStage[i]].dur[k] + (fetch ?? 0);

  for (let i = 0; i < model.nTasks; i++) {
    if (explicit.has(i)) continue;
    const events = byTask.get(i);
    if (!events) {
      if (input.assumeStartedAsPlanned && planned[i] !== -1 && plannedStart[i] < nowSlot) {
        if (planned[i] === -2) rerun.push({ ...ref(i), reason: 'node-lost' });
        else derived.set(i, { node: planned[i], start: plannedStart[i], source: 'assumed' });
      }
      continue;
    }
    events.sort((a, b) => a.atMs - b.atMs || TYPE_ORDER[a.type] - TYPE_ORDER[b.type]);
    const last = events[events.length - 1];
    if (last.type === 'killed') {
      // Killed, then planned again by the plan re-planned (a previous re-plan) to start since, before now: as planned, when assumed.
      const relaunched = input.assumeStartedAsPlanned && planned[i] >= 0 && plannedStart[i] < nowSlot && plannedStart[i] > slotOf(last.atMs);
      if (relaunched) derived.set(i, { node: planned[i], start: plannedStart[i], source: 'assumed' });
      else rerun.push({ ...ref(i), reason: 'killed' });
      continue;
    }
    const k = model.nodeIndex.get(last.node);
    if (k === undefined) {
      rerun.push({ ...ref(i), reason: 'node-lost' });
      continue;
    }
    let startedAt: TaskEvent | undefined;
    for (const e of events) if (e.type === 'started' && e.atMs <= last.atMs) startedAt = e;
    if (last.type === 'started') {
      derived.set(i, { node: k, start: slotOf(last.atMs), source: 'running' });
      continue;
    }
    // Finished: from its last start, else as planned on that node, else (below) as late as it could have run.
    const endedBy = Math.max(0, Math.ceil((last.atMs - window.startsAtMs) / slotMs - 1e-9));
    const reported = startedAt ? slotOf(startedAt.atMs) : planned[i] === k ? plannedStart[i] : Infinity;
    derived.set(i, { node: k, start: reported, source: 'finished', endedBy });
  }

  // A task on a node lost while it runs (or would run) is killed by the loss: it runs again elsewhere.
  for (const loss of input.lost ?? []) {
    const k = model.nodeIndex.get(loss.node);
    if (k === undefined) continue;
    for (const [i, d] of derived) {
      if (d.node !== k || d.source === 'finished') continue;
      const fromMs = window.startsAtMs + d.start * slotMs;
      const toMs = fromMs + lengthOn(i, k, plannedFetch[i] >= 0 ? plannedFetch[i] : undefined) * slotMs;
      if (loss.fromMs < toMs && (loss.toMs === null || loss.toMs > fromMs)) {
        derived.delete(i);
        rerun.push({ ...ref(i), reason: 'node-lost' });
      }
    }
  }

  // The plan's fetch time is kept where it still holds: the task and every task of the stages before it where the plan put them.
  const nodeOf = (i: number) => (explicit.has(i) ? -3 : derived.get(i)?.node ?? -1);
  if (priced)
    for (const [i, d] of derived) {
      const s = model.stages[model.taskStage[i]];
      const predsAsPlanned = s.preds.every((p) => {
        const ps = model.stages[p];
        for (let n = ps.firstTask; n < ps.firstTask + ps.tasks; n++) if (nodeOf(n) !== planned[n]) return false;
        return true;
      });
      if (d.node === planned[i] && plannedFetch[i] >= 0 && predsAsPlanned) d.fetchSlots = plannedFetch[i];
    }

  for (const [i, d] of derived) {
    const length = lengthOn(i, d.node, d.fetchSlots);
    if (d.endedBy !== undefined) {
      // A finished task holds its node for its duration in the model: it starts early enough to end when it did.
      const latest = Math.max(0, d.endedBy - length);
      const start = Math.min(d.start, latest, nowSlot);
      if (Number.isFinite(d.start) && start < d.start) adjusted.push({ ...ref(i), from: d.start, to: start, reason: 'ended-sooner' });
      d.start = start;
    } else if (d.source === 'running' && d.start > model.T - length && model.T - length >= 0) {
      // A running task that would run past the window started early enough to end with it (its hold from now on is the same).
      adjusted.push({ ...ref(i), from: d.start, to: model.T - length, reason: 'within-window' });
      d.start = model.T - length;
    }
  }

  // Stage by stage in each job's topological order: a stage after a task that runs again runs again; one that
  // started before its predecessors' frozen ends starts at their end, or runs again when that is after nowSlot.
  const endOf = (i: number) => {
    const d = derived.get(i)!;
    return d.start + lengthOn(i, d.node, d.fetchSlots);
  };
  for (const job of model.jobs)
    for (const g of job.stages) {
      const s = model.stages[g];
      const mine: number[] = [];
      for (let i = s.firstTask; i < s.firstTask + s.tasks; i++) if (derived.has(i)) mine.push(i);
      if (!mine.length) continue;
      let predsEnd = 0;
      let predRerun = false;
      for (const p of s.preds) {
        const ps = model.stages[p];
        for (let n = ps.firstTask; n < ps.firstTask + ps.tasks; n++) {
          if (explicit.has(n)) continue; // the caller's: the engine checks what it implies
          if (!derived.has(n)) predRerun = true;
          else predsEnd = Math.max(predsEnd, endOf(n));
        }
      }
      for (const i of mine) {
        const d = derived.get(i)!;
        if (predRerun || (d.start < predsEnd && predsEnd > nowSlot)) {
          derived.delete(i);
          rerun.push({ ...ref(i), reason: predRerun ? 'after-rerun' : 'before-predecessors-end' });
        } else if (d.start < predsEnd) {
          adjusted.push({ ...ref(i), from: d.start, to: predsEnd, reason: 'after-predecessors' });
          d.start = predsEnd;
        }
      }
    }

  const assignments: AssignmentDoc[] = (input.explicit ?? []).map((a) => ({ ...a }));
  const sources: FrozenSource[] = assignments.map(() => 'explicit');
  for (const i of [...derived.keys()].sort((a, b) => a - b)) {
    const d = derived.get(i)!;
    assignments.push({ ...ref(i), node: model.nodeIds[d.node], start: d.start, ...(d.fetchSlots !== undefined ? { fetchSlots: d.fetchSlots } : {}) });
    sources.push(d.source);
  }
  return { frozen: { nowSlot, assignments }, sources, rerun, adjusted: adjusted.filter((a) => derived.has(taskOf(a))), ignoredEvents };
}
