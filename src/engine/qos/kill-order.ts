import { QOS_EPS, QosNodeView, SAFETY_MARGIN_THRESHOLD } from './types';

/**
 * The RAM rule shared by both controllers, for one metric m of one node (Salamander Alg. 3 lines 7-14,
 * Cuckoo III-D), with free = C(1 - U) what the regular customers leave and sm = C * S the safety margin:
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
  let usage = view.used[m];
  for (const i of killed) usage -= view.demand(i, m);
  if (usage <= QOS_EPS) return;
  const alive = view.tasks.filter((i) => !killed.has(i));
  if (free < sm - QOS_EPS) {
    for (const i of byLatestFirst(view, alive)) (killed.add(i), out.push(i));
    return;
  }
  const limit = free - sm + SAFETY_MARGIN_THRESHOLD * sm;
  if (usage <= limit + QOS_EPS) return;
  for (const i of byLatestFirst(view, alive)) {
    const d = view.demand(i, m);
    if (d <= 0) continue; // killing it would free nothing of m
    killed.add(i);
    out.push(i);
    usage -= d;
    if (usage <= limit + QOS_EPS) return;
  }
}

function byLatestFirst(view: QosNodeView, tasks: number[]): number[] {
  return tasks.sort((x, y) => view.order(y) - view.order(x));
}
