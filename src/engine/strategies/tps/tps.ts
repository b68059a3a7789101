import { scheduleRevenue } from '../../schedule/revenue';
import { buildFromJobOrder } from '../../schedule/sgs';
import { Schedule } from '../../schedule/schedule';
import { edfOrder } from '../../lists/job-orders';
import { Strategy, StrategyContext, StrategyResult } from '../../contracts/strategy';
import { PreAllocation } from './prealloc';
import { realise } from './realise';
import { sas } from './sas';
import { buildPool, jobShapes } from './shape';
import { smr, SmrVariant, tpsJobs } from './smr';

/**
 * The variants tried, best revenue kept. First the paper's text (the minimum Eq. 7 score wins: the jobs
 * whose delay costs least are the ones advanced, and abandoned if need be) with Sp per resource held
 * (the abstract's "revenue rate"), which does best on the paper's platform; then plain Sp; then
 * Algorithm 1's literal maxPf, for completeness. Each costs about one list-scheduling build.
 */
const VARIANTS: readonly SmrVariant[] = [
  { value: 'rate', choice: 'min' },
  { value: 'sp', choice: 'min' },
  { value: 'sp', choice: 'max' },
];

/**
 * Two-phase scheduling (two-stage paper, "TPS"): SMR books every job at its latest start and resolves
 * overloads from the last backwards, sacrificing the cheapest jobs; SAS then walks time forward and
 * starts jobs as early as the bookings allow, picking the least wasteful one; finally the job sequence
 * is built task by task against the real capacity. A construction, not a search: it returns as soon as
 * its variants are built. When the deadline cuts it short, the EDF schedule built first is returned.
 */
export const tps: Strategy = {
  name: 'tps',
  description: 'Two-phase revenue scheduling (two-stage paper Alg. 1 SMR + Alg. 2 SAS), built on the real capacity',
  run(ctx: StrategyContext): StrategyResult {
    const { model } = ctx;
    const stop = ctx.budget.deadlineCheck();
    // The fallback, built whole even when already stopped: a construction cut short still returns a plan.
    let best: Schedule = buildFromJobOrder(model, edfOrder(model), null);
    let bestRevenue = -Infinity;
    let stats: Record<string, unknown> = { tpsCompleted: false };
    let iterations = 0;
    const pool = buildPool(model);
    const shapes = jobShapes(model, pool, stop);
    const jobs = shapes && tpsJobs(model, pool, shapes);
    for (const variant of VARIANTS) {
      if (!shapes || !jobs || ctx.budget.stopNow(iterations)) break;
      const pa = new PreAllocation(pool, shapes, model.T);
      const phase1 = smr(model, pa, jobs, variant, stop);
      const phase2 = phase1 && sas(model, pa, jobs, phase1.abandoned, stop);
      const built = phase1 && phase2 && realise(model, phase2.sequence, jobs, (j) => shapes[j].runnable, stop);
      if (!phase1 || !phase2 || !built) break;
      iterations++;
      const s = built.schedule;
      const revenue = scheduleRevenue(model, s);
      if (iterations === 1 || revenue > bestRevenue + 1e-9 || (Math.abs(revenue - bestRevenue) <= 1e-9 && s.scheduledTasks() > best.scheduledTasks())) {
        best = s;
        bestRevenue = revenue;
        let revivedBySas = 0;
        for (let j = 0; j < model.jobs.length; j++) if (phase1.abandoned[j] && s.accepted[j]) revivedBySas++;
        stats = {
          tpsCompleted: true,
          variant: `${variant.choice}-${variant.value}`,
          abandonedBySmr: phase1.abandonedBySmr,
          lateEvenAlone: phase1.lateEvenAlone,
          overloadPeriodsResolved: phase1.overloadPeriodsResolved,
          revivedInSasPlan: phase2.revived,
          revivedBySas,
          deferredLate: built.deferred,
          rejectedLate: built.rejectedLate,
        };
      }
      ctx.report(iterations, best.scheduledTasks(), best.makespan());
    }
    if (iterations === 0) ctx.report(1, best.scheduledTasks(), best.makespan());
    return { schedule: best, iterations: Math.max(1, iterations), stats: { ...stats, variantsBuilt: iterations } };
  },
};
