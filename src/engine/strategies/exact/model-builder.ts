import { Model } from '../../model/model';
import { jobRevenue } from '../../schedule/revenue';
import { capacityRows, cliqueRows, runningTerms } from './resource-rows';
import { MilpProblem, RowWriter, TooBig } from './row-writer';
import { propagate } from './propagate';
import { Windows, computeWindows, lastIndexAtMost } from './windows';

export type { MilpProblem } from './row-writer';

/**
 * The time-indexed MILP of a model, as sparse arrays HiGHS takes directly (no LP text to print and
 * parse, and the arrays can be moved to the solver thread without copying).
 *
 * Formulation ("step" variables, aggregated over the identical tasks of a stage):
 *   Y[g,k,t] = number of tasks of stage g started on node k at or before slot t (integer, nondecreasing
 *              in t, defined only at the slots where a task of g fits alone on k inside g's window);
 *   running on k at t = Y[g,k,t] - Y[g,k,t-dur] and finished by t = sum_k Y[g,k,t-dur_gk], so every
 *   capacity and precedence row has two entries per stage and node instead of `dur`;
 *   done[g,t] in {0,1}: all tasks of g have ended by t (n_g * done <= finished); for single-task stages
 *   it is the finished count itself, so no extra variable;
 *   precedence a -> b: started_b(t) <= n_b * done_a(t) (the disaggregated form, tighter than comparing
 *   mean start times); makespan C >= end of each sink stage = sum_t (y_j - done[g,t]).
 * Jobs are all or nothing: sum_k Y[g,k,last] = n_g * y_j. Resource rows (capacity, maxTasks and
 * disjunctive cliques) are in resource-rows.ts.
 * Objective: min C when every job is in (the horizon is then the incumbent's makespan), otherwise
 * min C - W * scheduledTasks with W = horizon + 1, which keeps the lexicographic order exactly.
 * Revenue objective (two-stage paper Eq. 2-3): max sum_j late_j * y_j + (onTime_j - late_j) * o_j, where
 * o_j in {0,1} marks a job that ends by its deadline: o_j <= y_j and o_j <= done[g, deadline_j] for
 * every sink stage g of j. C is then left out of the objective.
 */
/** Where each quantity of the schedule lives among the columns (for the MIP start and decoding). */
export interface MilpLayout {
  /** Weighted single objective C - W * scheduledTasks (jobs may be rejected); otherwise min C with all jobs in. */
  weighted: boolean;
  taskWeight: number;
  horizon: number;
  windows: Windows;
  colC: number;
  colY: Int32Array;
  /** colStart[g][k]: column of Y at windows.slots[g][k][0]; the slots of (g,k) use consecutive columns. */
  colStart: Int32Array[];
  /** Column of done[g, ef[g]] (consecutive up to lf[g] - 1), or -1 for single-task stages. */
  doneCol: Int32Array;
  /** Revenue objective: column of o_j (ends by its deadline), or -1 for jobs without a deadline and revenue. */
  colOnTime: Int32Array | null;
}

export interface BuildOptions {
  /** Every task ends by this slot (the incumbent's makespan when all jobs are in, else T). */
  horizon: number;
  weighted: boolean;
  /** Maximise revenue instead (implies weighted: jobs may be rejected). */
  revenue?: boolean;
  /** A valid lower bound on C (only used when not weighted). */
  makespanLower: number;
  maxColumns: number;
  maxNonzeros: number;
  /** Clique rows are added only while the matrix has fewer nonzeros than this. */
  maxCliqueNonzeros: number;
  /** Absolute ms until which the windows may be shaved (propagate.ts; every job in only). Default: no shaving. */
  shaveUntil?: number;
}

export type BuildResult =
  | { ok: true; problem: MilpProblem; layout: MilpLayout; nonzeros: number }
  | { ok: false; reason: string; columns: number; nonzeros: number };

/** Why buildMilp fails when every job must run and the time windows show some job cannot. */
export const NO_ROOM = 'some job cannot run within the horizon';

export function buildMilp(model: Model, opt: BuildOptions): BuildResult {
  const w = computeWindows(model, opt.horizon);
  const H = w.horizon;
  const { K } = model;
  // Every job must run: propagation may narrow the windows further (never when jobs may be left out).
  if (!opt.weighted && !propagate(model, w, opt.shaveUntil ?? 0)) return { ok: false, reason: NO_ROOM, columns: 0, nonzeros: 0 };

  // Columns: C, y per job, Y per usable (stage, node, slot), done per multi-task stage and slot.
  const taskWeight = H + 1; // C <= H, so one more task always outweighs any makespan difference
  let n = 1 + model.jobs.length;
  const colY = Int32Array.from(model.jobs, (_, j) => 1 + j);
  const colStart: Int32Array[] = [];
  const doneCol = new Int32Array(model.stages.length).fill(-1);
  model.stages.forEach((s, g) => {
    const cs = new Int32Array(K).fill(-1);
    if (w.jobFeasible[s.job])
      for (let k = 0; k < K; k++) {
        if (w.slots[g][k].length === 0) continue;
        cs[k] = n;
        n += w.slots[g][k].length;
      }
    colStart.push(cs);
  });
  model.stages.forEach((s, g) => {
    if (!w.jobFeasible[s.job] || s.tasks === 1 || w.lf[g] <= w.ef[g]) return;
    doneCol[g] = n;
    n += w.lf[g] - w.ef[g];
  });
  const revenue = opt.revenue === true;
  const colOnTime = revenue ? new Int32Array(model.jobs.length).fill(-1) : null;
  if (colOnTime)
    model.jobs.forEach((job, j) => {
      if (job.hasRevenue && job.deadline >= 0 && w.jobFeasible[j]) colOnTime[j] = n++;
    });
  if (n > opt.maxColumns) return { ok: false, reason: `${n} columns > ${opt.maxColumns}`, columns: n, nonzeros: 0 };

  const colCost = new Float64Array(n);
  const colLower = new Float64Array(n);
  const colUpper = new Float64Array(n);
  const integrality = new Int32Array(n).fill(1);
  let lowC = 0;
  if (!opt.weighted) {
    lowC = opt.makespanLower;
    model.stages.forEach((s, g) => {
      if (s.succs.length === 0) lowC = Math.max(lowC, w.ef[g]);
    });
  }
  colCost[0] = revenue ? 0 : 1;
  colLower[0] = Math.min(lowC, H);
  colUpper[0] = H;
  model.jobs.forEach((job, j) => {
    const c = colY[j];
    colLower[c] = opt.weighted || revenue ? 0 : 1;
    colUpper[c] = w.jobFeasible[j] ? 1 : 0;
    // revenue: an accepted job earns at least its late revenue (onTime when it has no deadline): end = Infinity
    colCost[c] = revenue ? -jobRevenue(job, Infinity) : opt.weighted ? -taskWeight * job.taskCount : 0;
    const o = colOnTime?.[j] ?? -1;
    if (o >= 0) {
      colUpper[o] = 1;
      colCost[o] = -(job.revenueOnTime - job.revenueLate);
    }
  });
  model.stages.forEach((s, g) => {
    for (let k = 0; k < K; k++) {
      const c0 = colStart[g][k];
      if (c0 >= 0) colUpper.fill(s.tasks, c0, c0 + w.slots[g][k].length);
    }
    if (doneCol[g] >= 0) colUpper.fill(1, doneCol[g], doneCol[g] + w.lf[g] - w.ef[g]);
  });

  const rows = new RowWriter(n, opt.maxNonzeros);
  /** Column of Y[g,k,·] at the last usable slot <= t, or -1 when nothing can have started by t. */
  const startedCol = (g: number, k: number, t: number): number => {
    const c0 = colStart[g][k];
    if (c0 < 0) return -1;
    const i = lastIndexAtMost(w.slots[g][k], t);
    return i < 0 ? -1 : c0 + i;
  };
  const addStarted = (g: number, t: number, coef: number) => {
    for (let k = 0; k < K; k++) rows.add(startedCol(g, k, t), coef);
  };
  const addFinished = (g: number, t: number, coef: number) => {
    for (let k = 0; k < K; k++) rows.add(startedCol(g, k, t - model.stages[g].dur[k]), coef);
  };
  /** done[g,t] for t in [ef, lf): a binary column, or the finished count of a single-task stage. */
  const addDone = (g: number, t: number, coef: number) => {
    if (t < w.ef[g]) return;
    if (t >= w.lf[g]) return rows.add(colY[model.stages[g].job], coef);
    if (doneCol[g] >= 0) rows.add(doneCol[g] + t - w.ef[g], coef);
    else addFinished(g, t, coef);
  };

  try {
    model.stages.forEach((s, g) => {
      const j = s.job;
      if (!w.jobFeasible[j]) return;
      for (let k = 0; k < K; k++) {
        const c0 = colStart[g][k];
        for (let i = 1; c0 >= 0 && i < w.slots[g][k].length; i++) {
          rows.add(c0 + i - 1, 1);
          rows.add(c0 + i, -1);
          rows.commit(-Infinity, 0);
        }
      }
      for (let k = 0; k < K; k++) if (colStart[g][k] >= 0) rows.add(colStart[g][k] + w.slots[g][k].length - 1, 1);
      rows.add(colY[j], -s.tasks);
      rows.commit(0, 0);
      if (doneCol[g] >= 0)
        for (let t = w.ef[g]; t < w.lf[g]; t++) {
          rows.add(doneCol[g] + t - w.ef[g], s.tasks);
          addFinished(g, t, -1);
          rows.commit(-Infinity, 0);
        }
      for (const a of s.preds)
        for (let t = w.es[g]; t < w.lf[a]; t++) {
          addStarted(g, t, 1);
          if (rows.empty()) continue;
          addDone(a, t, -s.tasks);
          rows.commit(-Infinity, 0);
        }
      const o = colOnTime?.[j] ?? -1;
      if (o >= 0 && s.succs.length === 0) {
        // o_j <= done[g, deadline]: the job is on time only when this sink stage has ended by then.
        rows.add(o, 1);
        addDone(g, model.jobs[j].deadline, -1);
        rows.commit(-Infinity, 0);
      }
      if (s.succs.length === 0) {
        rows.add(0, 1);
        rows.add(colY[j], -w.lf[g]);
        for (let t = w.ef[g]; t < w.lf[g]; t++) addDone(g, t, 1);
        rows.commit(0, Infinity);
      }
    });
    if (colOnTime)
      colOnTime.forEach((o, j) => {
        if (o < 0) return;
        rows.add(o, 1);
        rows.add(colY[j], -1);
        rows.commit(-Infinity, 0);
      });
    const terms = Array.from({ length: K }, (_, k) => runningTerms(model, w, colStart, k));
    for (let k = 0; k < K; k++) capacityRows(model, w, k, terms[k], rows);
    for (let k = 0; k < K && rows.nonzeros < opt.maxCliqueNonzeros; k++) cliqueRows(model, w, k, terms[k], rows, opt.maxCliqueNonzeros);
  } catch (e) {
    if (e instanceof TooBig)
      return { ok: false, reason: `more than ${opt.maxNonzeros} nonzeros`, columns: n, nonzeros: rows.nonzeros };
    throw e;
  }
  const problem: MilpProblem = {
    numCols: n,
    colCost,
    colLower,
    colUpper,
    integrality,
    ...rows.finish(),
  };
  const layout: MilpLayout = { weighted: opt.weighted, taskWeight, horizon: H, windows: w, colC: 0, colY, colStart, doneCol, colOnTime };
  return { ok: true, problem, layout, nonzeros: rows.nonzeros };
}
