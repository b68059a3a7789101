import { QOS_EPS, QosNodeView, SAFETY_MARGIN_THRESHOLD } from './types';

/**
 * The RAM rule of Salamander Alg. 3 for one metric m of one node (lines 7-14), with free = C(1 - U) what
 * the regular customers leave and sm = C * S the safety margin:
 *   - free < sm (the regular customers ate the whole margin): kill every task (line 14);
 *   - otherwise the tasks' limit is ramLimit = free - sm = C(1 - U - S), and tasks are killed latest
 *     scheduled first (line 10: "so to avoid killing tasks that may almost finish") while their usage
 *     exceeds ramLimit + 50% of sm (lines 8-9), i.e. while the regular customers have less than half
 *     the margin left.
 * `killed` marks tasks already chosen (by another metric); their usage no longer counts.
 */
export function killForMetric(view: QosNodeView, m: number, killed: Set<number>, out: number[]): void {
  const C = view.capacity[m];
  const free = C * Math.max(0, 1 - view.regular[m]);
  const sm = C * view.margin[m];
  const usage = usageLeft(view, m, killed);
  if (usage <= QOS_EPS) return;
  if (free < sm - QOS_EPS) {
    for (const i of byLatestFirst(view, view.tasks.filter((i) => !killed.has(i)))) (killed.add(i), out.push(i));
    return;
  }
  const limit = free - sm + SAFETY_MARGIN_THRESHOLD * sm;
  if (usage <= limit + QOS_EPS) return; // the common case: sort nothing
  killDownTo(view, m, byLatestFirst(view, view.tasks.filter((i) => !killed.has(i))), limit, usage, killed, out);
}

/** Whether killForMetric(view, m) kills anything when nothing is killed yet (its two conditions on the node's usage of m). */
export function killsFor(view: QosNodeView, m: number): boolean {
  const usage = view.used[m];
  if (usage <= QOS_EPS) return false;
  const C = view.capacity[m];
  const free = C * Math.max(0, 1 - view.regular[m]);
  const sm = C * view.margin[m];
  return free < sm - QOS_EPS || usage > free - sm + SAFETY_MARGIN_THRESHOLD * sm + QOS_EPS;
}

/**
 * Where killForMetric starts to act, as a regular-customer utilisation of m: the regular customers eat
 * more than half the margin, usage > C(1 - U) - sm/2, i.e. U > 1 - S/2 - usage/C, or the whole of it,
 * U > 1 - S (the kill-all branch, which acts even when the tasks use little of m).
 */
export function killThreshold(view: QosNodeView, m: number): number {
  const C = view.capacity[m];
  if (!(C > 0) || view.used[m] <= QOS_EPS) return Infinity;
  const S = view.margin[m];
  return Math.min(1 - S, 1 - SAFETY_MARGIN_THRESHOLD * S - view.used[m] / C);
}

/** Kills tasks of `candidates`, in that order, while the node's usage of m exceeds `limit` (those using no m are spared). */
export function killDownTo(view: QosNodeView, m: number, candidates: number[], limit: number, usage: number, killed: Set<number>, out: number[]): void {
  if (usage <= limit + QOS_EPS) return;
  for (const i of candidates) {
    const d = view.demand(i, m);
    if (d <= 0) continue; // killing it would free nothing of m
    killed.add(i);
    out.push(i);
    usage -= d;
    if (usage <= limit + QOS_EPS) return;
  }
}

/** The node's usage of m without the tasks already chosen. */
export function usageLeft(view: QosNodeView, m: number, killed: Set<number>): number {
  let usage = view.used[m];
  for (const i of killed) usage -= view.demand(i, m);
  return usage;
}

export function byLatestFirst(view: QosNodeView, tasks: number[]): number[] {
  return tasks.sort((x, y) => view.order(y) - view.order(x));
}
