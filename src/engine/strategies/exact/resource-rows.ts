import { CAPACITY_EPS, Model, NO_TASK_LIMIT } from '../../model/model';
import { disjunctiveCliques } from './cliques';
import { RowWriter } from './row-writer';
import { Windows } from './windows';

/** Enough to cover the conflict graph of PSPLIB-size projects; each clique adds one row per slot. */
const MAX_CLIQUES_PER_NODE = 200;

/**
 * The stages that may run on node k at each slot t, as triples (stage, column of Y at t, column of Y
 * at t - dur or -1): the tasks running at t are those started in (t - dur, t], i.e. the difference.
 */
export function runningTerms(model: Model, w: Windows, colStart: Int32Array[], k: number): number[][] {
  const H = w.horizon;
  const terms: number[][] = Array.from({ length: H }, () => []);
  model.stages.forEach((s, g) => {
    const slots = w.slots[g][k];
    const c0 = colStart[g][k];
    if (c0 < 0) return;
    const d = s.dur[k];
    let hi = -1;
    let lo = -1;
    for (let t = slots[0]; t < Math.min(H, slots[slots.length - 1] + d); t++) {
      while (hi + 1 < slots.length && slots[hi + 1] <= t) hi++;
      while (lo + 1 < slots.length && slots[lo + 1] <= t - d) lo++;
      if (hi !== lo) terms[t].push(g, c0 + hi, lo < 0 ? -1 : c0 + lo);
    }
  });
  return terms;
}

/** Capacity (every metric) and task-slot rows of node k; rows no combination of tasks could violate are left out. */
export function capacityRows(model: Model, w: Windows, k: number, terms: number[][], rows: RowWriter): void {
  const { M, T } = model;
  const av = model.avail[k];
  const limited = model.maxTasks[k] !== NO_TASK_LIMIT;
  for (let t = 0; t < w.horizon; t++) {
    const tt = terms[t];
    if (tt.length === 0) continue;
    for (let m = 0; m < M; m++) {
      let worst = 0;
      for (let i = 0; i < tt.length; i += 3) worst += model.stages[tt[i]].demand[m] * model.stages[tt[i]].tasks;
      const cap = av[m * T + t] + CAPACITY_EPS;
      if (worst <= cap) continue;
      for (let i = 0; i < tt.length; i += 3) {
        const q = model.stages[tt[i]].demand[m];
        if (q === 0) continue;
        rows.add(tt[i + 1], q);
        rows.add(tt[i + 2], -q);
      }
      rows.commit(-Infinity, cap);
    }
    if (limited) {
      const limit = model.taskLimit[k][t];
      let worst = 0;
      for (let i = 0; i < tt.length; i += 3) worst += model.stages[tt[i]].tasks;
      if (worst <= limit) continue;
      for (let i = 0; i < tt.length; i += 3) {
        rows.add(tt[i + 1], 1);
        rows.add(tt[i + 2], -1);
      }
      rows.commit(-Infinity, limit);
    }
  }
}

/**
 * "At most one of these runs at t" for the disjunctive cliques of node k (see cliques.ts), while the
 * matrix stays under `maxNonzeros`: they tighten the LP a lot but also slow every LP solve down.
 */
export function cliqueRows(model: Model, w: Windows, k: number, terms: number[][], rows: RowWriter, maxNonzeros: number): void {
  const cliques = disjunctiveCliques(model, w, k, MAX_CLIQUES_PER_NODE);
  const at = new Int32Array(model.stages.length).fill(-1);
  for (const q of cliques) {
    if (rows.nonzeros >= maxNonzeros) return;
    for (let t = 0; t < w.horizon; t++) {
      const tt = terms[t];
      for (let i = 0; i < tt.length; i += 3) at[tt[i]] = i;
      let present = 0;
      for (const g of q) if (at[g] >= 0) present++;
      if (present >= 2) {
        for (const g of q) {
          if (at[g] < 0) continue;
          rows.add(tt[at[g] + 1], 1);
          rows.add(tt[at[g] + 2], -1);
        }
        rows.commit(-Infinity, 1);
      }
      for (let i = 0; i < tt.length; i += 3) at[tt[i]] = -1;
    }
  }
}
