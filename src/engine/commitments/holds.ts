import { Model, stageKey } from '../model/model';
import { PlanDoc, TRANSFERS_PRICED } from '../model/types';

/** The wall-clock window a plan was made for: slot t stands for [startsAt + t * slotSeconds, startsAt + (t + 1) * slotSeconds). */
export interface PlanWindow {
  /** Milliseconds since the epoch. */
  startsAtMs: number;
  slotSeconds: number;
  slots: number;
}

/**
 * What one committed task holds on its node: its demand per metric (and one task slot) over [fromMs, toMs).
 * Holds are kept in wall-clock time, not slots, so plans made for different windows lie on one time line.
 */
export interface Hold {
  node: string;
  job: string;
  fromMs: number;
  toMs: number;
  demand: Record<string, number>;
}

/** Per node, metric or `tasks`, amounts per slot: the instance's `reserved` (docs/FORMAT.md). */
export type Reserved = Record<string, Record<string, number[]>>;

/** Wall-clock time of slot `t` of a window. */
export function slotTimeMs(w: PlanWindow, t: number): number {
  return w.startsAtMs + t * w.slotSeconds * 1000;
}

/**
 * The holds of a plan's assignments on the instance it is checked against: each task from its start to its
 * start + duration on its node (+ its fetchSlots in a plan with priced transfers: it holds its demand while
 * it fetches), with its stage's demand. Assignments the model cannot place (unknown job, stage or node) hold
 * nothing: the evaluator reports them.
 */
export function holdsOfPlan(model: Model, plan: Pick<PlanDoc, 'assignments' | 'transfers'>, window: PlanWindow): Hold[] {
  const holds: Hold[] = [];
  const priced = plan.transfers === TRANSFERS_PRICED;
  for (const a of plan.assignments) {
    const g = model.stageIndex.get(stageKey(a.job, a.stage));
    const k = model.nodeIndex.get(a.node);
    if (g === undefined || k === undefined) continue;
    const s = model.stages[g];
    const demand: Record<string, number> = {};
    model.metrics.forEach((m, i) => {
      if (s.demand[i] > 0) demand[m] = s.demand[i];
    });
    const fetch = priced && Number.isInteger(a.fetchSlots) ? a.fetchSlots! : 0;
    holds.push({ node: a.node, job: a.job, fromMs: slotTimeMs(window, a.start), toMs: slotTimeMs(window, a.start + fetch + s.dur[k]), demand });
  }
  return holds;
}

/**
 * What the holds take from a window, as `reserved`: a hold counts in every slot it overlaps, whole, so windows
 * that do not line up with the holds' slots stay safe (a task that ends a second into a slot holds that slot).
 * Only the given nodes and metrics appear (a node a new cluster version removed holds nothing), task counts
 * are capped at the node's maxTasks (FORMAT.md refuses more: the plan is then checked against a full node),
 * and nodes nothing holds are left out.
 */
export function reservedFromHolds(holds: Iterable<Hold>, window: PlanWindow, nodes: readonly { id: string; maxTasks?: number }[], metrics: readonly string[]): Reserved {
  const T = window.slots;
  const slotMs = window.slotSeconds * 1000;
  const known = new Map(nodes.map((n) => [n.id, n]));
  const metricSet = new Set(metrics);
  const out: Reserved = {};
  for (const h of holds) {
    const node = known.get(h.node);
    if (!node) continue;
    // Slots [a, b) the hold overlaps; a hold outside the window reserves nothing.
    const a = Math.max(0, Math.floor((h.fromMs - window.startsAtMs) / slotMs + 1e-9));
    const b = Math.min(T, Math.ceil((h.toMs - window.startsAtMs) / slotMs - 1e-9));
    if (a >= b) continue;
    const per = (out[h.node] ??= {});
    const add = (key: string, q: number) => {
      const series = (per[key] ??= new Array<number>(T).fill(0));
      for (let t = a; t < b; t++) series[t] += q;
    };
    for (const [m, q] of Object.entries(h.demand)) if (metricSet.has(m) && q > 0) add(m, q);
    if (node.maxTasks !== undefined) add('tasks', 1);
  }
  for (const n of nodes) {
    const tasks = out[n.id]?.tasks;
    if (tasks && n.maxTasks !== undefined) for (let t = 0; t < T; t++) tasks[t] = Math.min(tasks[t], n.maxTasks);
  }
  return out;
}
