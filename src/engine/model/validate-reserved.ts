import { isInt, isNum, isObject, show } from './json-values';
import type { Issue } from './types';

/**
 * The issues of an instance's `reserved` (docs/FORMAT.md, Reserved capacity): what committed plans of other
 * batches hold, node -> metric or `tasks` -> absolute amounts per slot (missing node, metric or slot = 0).
 * Amounts are numbers >= 0; `tasks` are integers >= 0 and at most the node's maxTasks (a reservation beyond it
 * would leave no plan feasible on that node, even one that runs nothing there at some slot), and there can be
 * no more values than slots.
 */
export function reservedIssues(
  reserved: unknown,
  nodes: ReadonlyMap<string, { maxTasks?: unknown }>,
  metrics: ReadonlySet<string>,
  slots: number,
): Issue[] {
  const issues: Issue[] = [];
  const bad = (path: string, message: string) => issues.push({ path, message });
  if (!isObject(reserved)) {
    bad('reserved', 'must be an object of node -> metric (or tasks) -> amounts per slot');
    return issues;
  }
  if (metrics.has('tasks')) bad('reserved', 'cannot be given when a metric is named "tasks": reserved.<node>.tasks is the task count');
  for (const [nodeId, per] of Object.entries(reserved as Record<string, unknown>)) {
    const p = `reserved.${nodeId}`;
    const node = nodes.get(nodeId);
    if (!node) bad(p, `unknown node "${nodeId}"`);
    if (!isObject(per)) {
      bad(p, 'must be an object of metric (or tasks) -> amounts per slot');
      continue;
    }
    for (const [key, series] of Object.entries(per as Record<string, unknown>)) {
      const path = `${p}.${key}`;
      const tasks = key === 'tasks';
      if (!tasks && !metrics.has(key)) {
        bad(path, `unknown metric "${key}" (metrics are ${[...metrics].join(', ')}, or tasks)`);
        continue;
      }
      if (!Array.isArray(series)) {
        bad(path, `must be an array of ${tasks ? 'task counts' : 'amounts'}, one per slot`);
        continue;
      }
      if (series.length > slots) bad(path, `has ${series.length} values but horizon.slots is ${slots}`);
      const maxTasks = node && typeof node.maxTasks === 'number' ? node.maxTasks : null;
      for (let t = 0; t < series.length; t++) {
        const v: unknown = series[t];
        const ok = tasks ? isInt(v) && v >= 0 : isNum(v) && v >= 0;
        if (!ok) {
          bad(`${path}[${t}]`, `must be ${tasks ? 'an integer >= 0' : 'a number >= 0'}, got ${show(v)}`);
          break; // one message per series is enough
        }
        if (tasks && maxTasks !== null && (v as number) > maxTasks) {
          bad(`${path}[${t}]`, `must be at most the node's maxTasks ${maxTasks}, got ${v}`);
          break;
        }
      }
    }
  }
  return issues;
}

