import { Injectable } from '@nestjs/common';
import { join } from 'node:path';
import type { SolveOutcome } from '../../engine/solve';
import type { PlanDoc } from '../../engine/model/types';
import type { Progress } from '../../engine/contracts/strategy';
import type { ThreadError } from '../../engine/threads/run-in-thread';
import { PlansService } from '../../modules/plans/plans.service';
import { PlanVersionsService } from '../../modules/plans/plan-versions.service';
import { PrerenderOutcome, StoredPlanCharts } from '../../modules/charts/stored-plan-charts';
import type { SolveEntity, SolveProgress } from '../../modules/solves/solve.entity';
import { SOLVE_WORK } from '../../modules/solves/solve.kind';
import { Completion, Prepared, WorkHandler } from '../../modules/work/work-handler';
import { solveDeadline } from '../../work/solve-limits';
import type { SolveInput } from '../../work/solve';

/**
 * A solve: the engine searches within the budget; the plan, its KPIs and rejections are stored with the solve's
 * end, and a large plan's charts with it (StoredPlanCharts: rendered on a chart thread while the plan is written).
 */
@Injectable()
export class SolveHandler implements WorkHandler<SolveEntity, SolveInput, Progress, SolveOutcome> {
  readonly kind = SOLVE_WORK;
  readonly threadFile = join(__dirname, 'solve.thread.js');

  constructor(
    private readonly plans: PlansService,
    private readonly versions: PlanVersionsService,
    private readonly charts: StoredPlanCharts,
  ) {}

  async prepare(s: SolveEntity): Promise<Prepared<SolveInput>> {
    // A re-plan hands the engine the plan it replaces (SolveOptions.previous): a hint to keep tasks where they were.
    const previous = s.replan ? previousPlan((await this.plans.byId(s.replan.planId)).document) : undefined;
    this.charts.solveStarts(s.instance.jobs.reduce((n, j) => n + j.stages.reduce((m, st) => m + st.tasks, 0), 0));
    // The engine stops itself at its deadline; the stop flag is raised at the budget in case a phase overran
    // it; a search that has still not answered long after is terminated (it would hold its worker forever).
    return {
      input: { instance: s.instance, strategy: s.strategy, objective: s.objective, timeBudgetMs: s.timeBudgetMs, seed: s.seed, scoreWeights: s.scoreWeights ?? undefined, shuffleAware: s.shuffleAware, transfers: s.transfers, previous },
      softStopAfterMs: s.timeBudgetMs,
      deadline: solveDeadline(s.timeBudgetMs),
    };
  }

  progress(p: Progress, elapsedMs: number): SolveProgress {
    return { elapsedMs, phase: p.phase ?? 'searching', iterations: p.iterations, scheduledTasks: p.scheduledTasks, makespanSlots: p.makespanSlots, boundSlots: p.boundSlots ?? null, gap: p.gap ?? null };
  }

  /** The last report with the clock moved on; `starting` before the engine's first report. */
  heartbeat(last: SolveProgress | undefined, elapsedMs: number): SolveProgress {
    return last ? { ...last, elapsedMs } : { elapsedMs, phase: 'starting', iterations: 0, scheduledTasks: 0, makespanSlots: 0, boundSlots: null, gap: null };
  }

  /** Engine errors are deterministic (a retry would fail the same way): the solve fails with the reason (a deadline's is the kernel's). */
  failure(_s: SolveEntity, e: ThreadError): string {
    return e.reason === 'error' ? e.message : `the solve failed: ${e.message}`;
  }

  async complete(s: SolveEntity, out: SolveOutcome, _cancelled: boolean, last: SolveProgress | undefined): Promise<Completion> {
    const plan = out.plan;
    // Stages whose durations were predicted say so in the plan (FORMAT.md, plans: predictions).
    const document = { ...plan, kpis: out.kpis, rejections: out.rejections, ...(s.predictions ? { predictions: s.predictions } : {}) };
    const progress: SolveProgress = {
      elapsedMs: last?.elapsedMs ?? Number(plan.stats?.elapsedMs ?? 0),
      phase: 'done',
      iterations: last?.iterations ?? 0,
      scheduledTasks: plan.objective.scheduledTasks,
      makespanSlots: plan.objective.makespanSlots,
      boundSlots: plan.bound?.makespanSlots ?? null,
      gap: plan.gap ?? null,
    };
    // A large plan's charts are made from the same text that is stored (serialised once, for both), on a chart
    // thread while the plan is written, and stored in the same transaction: a client that sees the solve succeeded
    // finds them there. A chart that fails or is late never fails the solve (StoredPlanCharts).
    const documentText = JSON.stringify(document);
    const charts = this.charts.start(plan.objective.scheduledTasks, documentText, () => JSON.stringify(s.instance));
    let planId: string | null = null;
    let prerendered: PrerenderOutcome | undefined;
    return {
      store: async (tx) => {
        const window = { startsAt: s.windowStartsAt ?? s.startsAt, slotSeconds: s.instance.horizon.slotSeconds, slots: s.instance.horizon.slots };
        const supersedes = s.replan?.planId ?? null;
        planId = await this.plans.insert(tx, { tenantId: s.tenantId, solveId: s.id, document, documentText, ends: out.ends, clusterId: s.clusterId, window, supersedes });
        if (planId === null) return null;
        prerendered = await charts?.storeInTx(tx, planId);
        // A re-plan's plan supersedes the plan re-planned and takes over its commitment, in this same transaction.
        if (!s.replan) return { planId, progress };
        return { planId, progress, replan: { ...s.replan, commitment: await this.versions.supersede(tx, s.replan.planId, planId) } };
      },
      summary: `${plan.objective.scheduledTasks} tasks, makespan ${plan.objective.makespanSlots}`,
      get result() {
        return { solveId: s.id, planId, strategy: s.strategy, ...(prerendered ? { charts: prerendered } : {}) };
      },
    };
  }
}

/** The plan document as the engine reads a previous plan: the fallow.plan/v1 fields, without the service's additions. */
function previousPlan(d: PlanDoc): PlanDoc {
  return { format: d.format, instance: d.instance, strategy: d.strategy, ...(d.transfers ? { transfers: d.transfers } : {}), assignments: d.assignments, rejected: d.rejected, objective: d.objective };
}
