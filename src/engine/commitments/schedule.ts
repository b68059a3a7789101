/**
 * A cluster's schedule over a window (issue 37, point 3): per node and metric its capacity C, the regular
 * customers' forecast load C x U, what committed plans hold, and what is still free; per node with task slots,
 * how many are held and free. Pure: the API reads the cluster, the forecast and the holds and calls this.
 */
import { Hold, PlanWindow, reservedFromHolds } from './holds';

/** Most slots one schedule answers for (a window of 5-minute slots: about a week). */
export const MAX_SCHEDULE_SLOTS = 2000;
/** The grid without a forecast: hourly slots over a day from the start asked for. */
export const DEFAULT_SLOT_SECONDS = 3600;
export const DEFAULT_SPAN_SECONDS = 24 * 3600;

/** The part of a forecast the grid needs: where its slot 0 lies, its slot length and its number of slots. */
export interface GridForecast {
  startsAtMs: number;
  slotSeconds: number;
  slots: number;
}

/** The schedule's time grid. */
export interface ScheduleGrid {
  window: PlanWindow;
  /** The forecast's slot under the window's slot 0 (null without a forecast). */
  forecastOffset: number | null;
  /** Window slots [0, forecastSlots) lie inside the forecast; beyond, it says nothing and the regular load counts as 0. */
  forecastSlots: number;
}

/**
 * The grid of a schedule from `fromMs` to `toMs` (exclusive; undefined: the default end). With a forecast
 * (one covering `fromMs`), `fromMs` is floored to its slot grid and the default end is the forecast's end (at
 * most MAX_SCHEDULE_SLOTS slots); without one, hourly slots start at `fromMs` and the default end is a day on.
 * A `toMs` inside a slot takes that whole slot. A `toMs` after `fromMs` that needs more than MAX_SCHEDULE_SLOTS
 * slots is an error message (the caller names its field); `toMs <= fromMs` is the caller's to refuse first.
 */
export function scheduleGrid(fromMs: number, toMs: number | undefined, forecast: GridForecast | null): ScheduleGrid | { error: string } {
  const S = forecast ? forecast.slotSeconds : DEFAULT_SLOT_SECONDS;
  const slotMs = S * 1000;
  const offset = forecast ? Math.floor((fromMs - forecast.startsAtMs) / slotMs + 1e-9) : 0;
  const startsAtMs = forecast ? forecast.startsAtMs + offset * slotMs : fromMs;
  const left = forecast ? Math.max(0, forecast.slots - offset) : 0;
  let slots: number;
  if (toMs === undefined) slots = Math.min(MAX_SCHEDULE_SLOTS, forecast ? left : DEFAULT_SPAN_SECONDS / S);
  else {
    slots = Math.max(1, Math.ceil((toMs - startsAtMs) / slotMs - 1e-9));
    if (slots > MAX_SCHEDULE_SLOTS)
      return { error: `the window from ${new Date(startsAtMs).toISOString()} would have ${slots} slots of ${S} s; at most ${MAX_SCHEDULE_SLOTS}, so to at most ${new Date(startsAtMs + MAX_SCHEDULE_SLOTS * slotMs).toISOString()}` };
  }
  return { window: { startsAtMs, slotSeconds: S, slots }, forecastOffset: forecast ? offset : null, forecastSlots: Math.min(slots, left) };
}

/** A node as the schedule needs it (the cluster version's NodeSpec fits). */
export interface ScheduleNode {
  id: string;
  capacity: Record<string, number>;
  maxTasks?: number;
}

/** The regular customers' forecast: U(k, m, t) as fractions of capacity per node and metric, and the forecast slot under the window's slot 0. */
export interface RegularLoad {
  usage: Record<string, Record<string, number[]>>;
  offset: number;
}

/** One metric of one node (or of the cluster, summed over its nodes), per slot of the window. */
export interface MetricLine {
  capacity: number;
  /** C x U: what the regular customers are forecast to use (0 where no forecast says). */
  regular: number[];
  /** What committed plans hold: a task counts in every slot it overlaps. May exceed what is left if the cluster shrank after the commits. */
  reserved: number[];
  /** max(0, capacity - regular - reserved). */
  free: number[];
}

/** The task slots of a node with maxTasks (or of the cluster: the sum over those nodes). */
export interface TaskLine {
  maxTasks: number;
  reserved: number[];
  free: number[];
}

export interface NodeSchedule {
  node: string;
  metrics: Record<string, MetricLine>;
  /** Only for a node with maxTasks. */
  tasks: TaskLine | null;
}

export interface ClusterSchedule {
  nodes: NodeSchedule[];
  /** Per metric, the nodes' lines summed. */
  totals: Record<string, MetricLine>;
  /** The task slots of the nodes with maxTasks, summed; null when no node has any. */
  taskTotals: TaskLine | null;
}

/** Sums of floating amounts shown to people: 1e-9 is far below any capacity unit, and 3.9999999999 reads as a bug. */
function clean(v: number): number {
  return Math.round(v * 1e9) / 1e9;
}

/**
 * The schedule of `nodes` over `window`: regular load from `regular` (slots past the forecast's end, or no
 * forecast at all: 0), reserved from the holds (reservedFromHolds: a hold counts in every slot it overlaps,
 * holds on nodes or metrics the cluster no longer has count nowhere, task counts are capped at maxTasks), free
 * what is left, never below 0.
 */
export function clusterSchedule(window: PlanWindow, nodes: readonly ScheduleNode[], metrics: readonly string[], holds: Iterable<Hold>, regular: RegularLoad | null): ClusterSchedule {
  const T = window.slots;
  const reserved = reservedFromHolds(holds, window, nodes, metrics);
  const zeros = () => new Array<number>(T).fill(0);
  const totals: Record<string, MetricLine> = Object.fromEntries(metrics.map((m) => [m, { capacity: 0, regular: zeros(), reserved: zeros(), free: zeros() }]));
  let taskTotals: TaskLine | null = null;
  const out = nodes.map((node): NodeSchedule => {
    const lines: Record<string, MetricLine> = {};
    for (const m of metrics) {
      const C = node.capacity[m] ?? 0;
      const u = regular?.usage[node.id]?.[m];
      const held = reserved[node.id]?.[m];
      const line: MetricLine = { capacity: C, regular: zeros(), reserved: zeros(), free: zeros() };
      const total = totals[m];
      total.capacity += C;
      for (let t = 0; t < T; t++) {
        const load = u ? C * (u[regular!.offset + t] ?? 0) : 0;
        const r = held ? held[t] : 0;
        line.regular[t] = clean(load);
        line.reserved[t] = clean(r);
        line.free[t] = clean(Math.max(0, C - load - r));
        total.regular[t] += load;
        total.reserved[t] += r;
        total.free[t] += line.free[t];
      }
      lines[m] = line;
    }
    let tasks: TaskLine | null = null;
    if (node.maxTasks !== undefined) {
      const held = reserved[node.id]?.tasks;
      tasks = { maxTasks: node.maxTasks, reserved: held ? [...held] : zeros(), free: zeros() };
      for (let t = 0; t < T; t++) tasks.free[t] = Math.max(0, node.maxTasks - tasks.reserved[t]);
      taskTotals ??= { maxTasks: 0, reserved: zeros(), free: zeros() };
      taskTotals.maxTasks += node.maxTasks;
      for (let t = 0; t < T; t++) (taskTotals.reserved[t] += tasks.reserved[t], (taskTotals.free[t] += tasks.free[t]));
    }
    return { node: node.id, metrics: lines, tasks };
  });
  for (const line of Object.values(totals)) {
    line.capacity = clean(line.capacity);
    for (const series of [line.regular, line.reserved, line.free]) for (let t = 0; t < T; t++) series[t] = clean(series[t]);
  }
  return { nodes: out, totals, taskTotals };
}
