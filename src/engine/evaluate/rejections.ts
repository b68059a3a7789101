import { earliestFinishAlone, makespanBound } from '../bounds/makespan';
import { CAPACITY_EPS, Model } from '../model/model';
import { PlanDoc } from '../model/types';

export type RejectionCode = 'demand-exceeds-capacity' | 'misses-window' | 'capacity-taken';

export interface RejectionReason {
  job: string;
  code: RejectionCode;
  /** For people: names the stage, metric and values behind the verdict. */
  reason: string;
}

/**
 * Why each job in plan.rejected was left out, from the instance alone (the plan's other jobs only
 * matter for the last verdict). The checks go from the strongest statement to the weakest:
 * - demand-exceeds-capacity: a stage's task asks, on some metric, for more than any node ever offers
 *   within the job's window, so no plan can ever run it;
 * - misses-window: even alone on the empty cluster the job cannot end within the horizon (its critical
 *   path from its release, or one of the engine's other makespan bounds for the job alone, is past it);
 * - capacity-taken: it would fit alone, so the accepted jobs hold the capacity it needs.
 * Ids that are not jobs of the instance are skipped.
 */
export function explainRejections(model: Model, plan: PlanDoc): RejectionReason[] {
  const out: RejectionReason[] = [];
  const eft = new Int32Array(model.stages.length);
  for (const id of plan.rejected ?? []) {
    const j = model.jobIndex.get(id);
    if (j === undefined) continue;
    const verdict = demandExceeds(model, j) ?? missesWindow(model, j, eft);
    if (verdict) out.push({ job: id, ...verdict });
    else {
      let end = 0;
      for (const g of model.jobs[j].stages) end = Math.max(end, eft[g]);
      out.push({
        job: id,
        code: 'capacity-taken',
        reason:
          `alone on the empty cluster its critical path would end at slot ${end}, within the horizon (${model.T} slots); ` +
          'the accepted jobs use the capacity it needs; the objective schedules as many tasks as possible first',
      });
    }
  }
  return out;
}

type Verdict = { code: RejectionCode; reason: string };

/** The first stage and metric whose task demand exceeds the most any usable node offers in [release, T). */
function demandExceeds(model: Model, j: number): Verdict | null {
  const { T, M, K } = model;
  const job = model.jobs[j];
  for (const g of job.stages) {
    const s = model.stages[g];
    for (let m = 0; m < M; m++) {
      const q = s.demand[m];
      if (q <= 0) continue;
      let best = 0;
      let bestK = -1;
      for (let k = 0; k < K; k++) {
        if (model.maxTasks[k] < 1) continue; // a node that runs no task offers nothing
        const av = model.avail[k];
        for (let t = job.release; t < T; t++)
          if (av[m * T + t] > best || bestK < 0) (best = av[m * T + t]), (bestK = k);
      }
      if (q <= best + CAPACITY_EPS) continue;
      const where = bestK < 0 ? 'no node can run tasks at all' : `the most any node offers is ${num(best)} (node ${model.nodeIds[bestK]})`;
      return {
        code: 'demand-exceeds-capacity',
        reason:
          `stage "${s.id}" needs ${num(q)} ${model.metrics[m]} per task, more than any node ever has available ` +
          `within the job's window (slots ${job.release}-${T - 1}): ${where}`,
      };
    }
  }
  return null;
}

/** Fills eft (earliest ends alone); a verdict when the job cannot end by T even on the empty cluster. */
function missesWindow(model: Model, j: number, eft: Int32Array): Verdict | null {
  const { T } = model;
  const job = model.jobs[j];
  earliestFinishAlone(model, j, eft);
  const late = job.stages.find((g) => eft[g] > T);
  if (late !== undefined) {
    // Longest chain of shortest durations up to the late stage: the plain reason when it is already too long.
    const len = new Int32Array(model.stages.length);
    const via = new Int32Array(model.stages.length).fill(-1);
    for (const g of job.stages) {
      for (const p of model.stages[g].preds) if (len[p] > len[g]) (len[g] = len[p]), (via[g] = p);
      len[g] += model.stages[g].minDur;
    }
    const chain: string[] = [];
    for (let g = late; g >= 0; g = via[g]) chain.unshift(model.stages[g].id);
    const what = chain.length === 1 ? `stage "${chain[0]}"` : `chain of stages ${chain.join(' -> ')}`;
    const reason =
      job.release + len[late] > T
        ? `even alone on the empty cluster it cannot end within the horizon (${T} slots): released at slot ${job.release}, ` +
          `its ${what} takes at least ${len[late]} slots and ends at slot ${job.release + len[late]} at the earliest`
        : `even alone on the empty cluster stage "${model.stages[late].id}" cannot end within the horizon (${T} slots): ` +
          `released at slot ${job.release}, its ${what} takes at least ${len[late]} slots, but the forecast availability leaves no room for it in time`;
    return { code: 'misses-window', reason };
  }
  // The task fits in time one by one; all of them together may still need more than the window holds.
  const only = new Uint8Array(model.jobs.length);
  only[j] = 1;
  const b = makespanBound(model, only);
  if (b.makespanSlots <= T) return null;
  const alone = `even alone on the empty cluster it cannot end within the horizon (${T} slots): from its release at slot ${job.release}, its ${job.taskCount} tasks`;
  for (let m = 0; m < model.M && b.energy > T; m++) {
    let need = 0;
    for (const g of job.stages) need += model.stages[g].demand[m] * model.stages[g].minDur * model.stages[g].tasks;
    let offer = 0;
    for (let k = 0; k < model.K; k++) for (let t = job.release; t < T; t++) offer += model.avail[k][m * T + t];
    if (need > offer + 1e-9)
      return { code: 'misses-window', reason: `${alone} need ${num(need)} ${model.metrics[m]}-slots, the nodes offer ${num(offer)}` };
  }
  if (b.taskSlots > T || b.throughput > T) {
    const which = b.taskSlots > T ? 'concurrent task slots' : 'processing throughput';
    return { code: 'misses-window', reason: `${alone} need more ${which} than the nodes offer in that time` };
  }
  return {
    code: 'misses-window',
    reason: `${alone} cannot all be packed onto the nodes in time: counting how many of each stage fit per node and slot (task limit, availability, node speed), its stages in order need until slot ${b.makespanSlots}`,
  };
}

/** A value without floating-point noise (0.30000000000000004 -> 0.3). */
function num(x: number): string {
  return String(Number(x.toPrecision(6)));
}
