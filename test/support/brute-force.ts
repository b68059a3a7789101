/**
 * Exhaustive search for a schedule of every task of a tiny instance that ends by C, independent of the
 * engine's bounds and strategies (exact declares a plan optimal when it meets the engine's own lower bound,
 * so it cannot check that bound). Tasks go in job and stage order; identical tasks of a stage take
 * non-decreasing (start, node) keys, which removes their permutations; each task tries every start and node.
 * Only for a few dozen tasks on a short horizon.
 */
import { CAPACITY_EPS, Model, NO_TASK_LIMIT } from '../../src/engine/model/model';

/** True when some feasible schedule of all tasks ends by C; throws after `limit` search nodes. */
export function fitsWithin(model: Model, C: number, limit = 5_000_000): boolean {
  const { T, K, M, avail, maxTasks } = model;
  const end = Math.min(C, T);
  const order: { g: number; first: boolean }[] = [];
  for (const job of model.jobs) for (const g of job.stages) for (let i = 0; i < model.stages[g].tasks; i++) order.push({ g, first: i === 0 });
  const used = Array.from({ length: K }, () => new Float64Array(M * T));
  const running = Array.from({ length: K }, () => new Int32Array(T));
  const stageEnd = new Int32Array(model.stages.length);
  const keys = new Int32Array(order.length);
  let nodes = 0;

  const fits = (g: number, k: number, t0: number, d: number) => {
    const demand = model.stages[g].demand;
    for (let t = t0; t < t0 + d; t++) {
      if (maxTasks[k] !== NO_TASK_LIMIT && running[k][t] + 1 > maxTasks[k]) return false;
      for (let m = 0; m < M; m++) if (demand[m] > 0 && used[k][m * T + t] + demand[m] > avail[k][m * T + t] + CAPACITY_EPS) return false;
    }
    return true;
  };
  const put = (g: number, k: number, t0: number, d: number, sign: 1 | -1) => {
    const demand = model.stages[g].demand;
    for (let t = t0; t < t0 + d; t++) {
      running[k][t] += sign;
      for (let m = 0; m < M; m++) used[k][m * T + t] += sign * demand[m];
    }
  };
  const place = (x: number): boolean => {
    if (++nodes > limit) throw new Error(`brute force: more than ${limit} search nodes`);
    if (x === order.length) return true;
    const { g, first } = order[x];
    const s = model.stages[g];
    let est = model.jobs[s.job].release;
    for (const p of s.preds) est = Math.max(est, stageEnd[p]);
    const minKey = first ? 0 : keys[x - 1];
    const before = stageEnd[g];
    for (let t = est; t < end; t++)
      for (let k = 0; k < K; k++) {
        const key = t * K + k;
        const d = s.dur[k];
        if (key < minKey || t + d > end || !fits(g, k, t, d)) continue;
        put(g, k, t, d, 1);
        keys[x] = key;
        stageEnd[g] = Math.max(before, t + d);
        if (place(x + 1)) return true;
        stageEnd[g] = before;
        put(g, k, t, d, -1);
      }
    return false;
  };
  return place(0);
}
