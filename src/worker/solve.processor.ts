import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Job } from 'bullmq';
import { In, Repository } from 'typeorm';
import { PlansRepository } from '../modules/plans/plans.repository';
import { SolveJobData } from '../modules/queue/solve-jobs';
import { SolveEntity, SolveProgress } from '../modules/solves/solve.entity';
import { RunningSolve, runSolveInThread } from './solve-runner';

const PROGRESS_EVERY_MS = 500;

export interface SolveJobResult {
  solveId: string;
  planId: string | null;
  status: string;
  elapsedMs: number;
  strategy?: string;
}

/** Runs one queued solve: claims it, solves in a thread, stores the plan and final status in one transaction. */
@Injectable()
export class SolveProcessor {
  private readonly log = new Logger('solver');
  private readonly running = new Map<string, RunningSolve>();

  constructor(
    @InjectRepository(SolveEntity) private readonly solves: Repository<SolveEntity>,
    private readonly plans: PlansRepository,
  ) {}

  async process(job: Job<SolveJobData>): Promise<SolveJobResult> {
    const id = job.data.solveId;
    const startedAt = Date.now();
    // Claim it. `running` is claimable too: that is a retry after the worker that had it died.
    const claim = await this.solves.update({ id, status: In(['queued', 'running']) }, { status: 'running', startedAt: new Date(), attempts: () => 'attempts + 1' });
    if (!claim.affected) return { solveId: id, planId: null, status: 'skipped', elapsedMs: 0 }; // cancelled or already done
    const solve = await this.solves.createQueryBuilder('s').addSelect('s.instance').where('s.id = :id', { id }).getOneOrFail();
    this.log.log(`solve ${id}: ${solve.strategy} (${solve.objective}), ${solve.timeBudgetMs} ms, attempt ${solve.attempts}`);

    let lastWrite = 0;
    let best: SolveProgress = { elapsedMs: 0, iterations: 0, scheduledTasks: 0, makespanSlots: 0 };
    const run = runSolveInThread({ instance: solve.instance, strategy: solve.strategy, objective: solve.objective, timeBudgetMs: solve.timeBudgetMs, seed: solve.seed }, (p) => {
      best = { elapsedMs: p.elapsedMs, iterations: p.iterations, scheduledTasks: p.scheduledTasks, makespanSlots: p.makespanSlots };
      const now = Date.now();
      if (now - lastWrite < PROGRESS_EVERY_MS) return;
      lastWrite = now;
      void this.solves.update({ id, status: 'running' }, { progress: best }).catch(() => undefined);
      void job.updateProgress({ ...best }).catch(() => undefined);
    });
    this.running.set(id, run);
    if (solve.cancelRequestedAt) run.stop();
    try {
      const outcome = await run.result;
      const current = await this.solves.findOneByOrFail({ id });
      const document = { ...outcome.plan, kpis: outcome.kpis, rejections: outcome.rejections };
      const status = current.cancelRequestedAt ? 'cancelled' : 'succeeded';
      const progress = { ...best, elapsedMs: Number(outcome.plan.stats?.elapsedMs ?? best.elapsedMs), scheduledTasks: outcome.plan.objective.scheduledTasks, makespanSlots: outcome.plan.objective.makespanSlots };
      const planId = await this.plans.store({ tenantId: solve.tenantId, solveId: id, document, ends: outcome.ends, status, progress });
      this.log.log(`solve ${id}: ${status}, ${outcome.plan.objective.scheduledTasks} tasks, makespan ${outcome.plan.objective.makespanSlots}${planId ? '' : ' (a plan was already stored)'}`);
      return { solveId: id, planId, status, elapsedMs: Date.now() - startedAt, strategy: solve.strategy };
    } catch (e) {
      // Engine errors are deterministic (a retry would fail the same way): the solve fails now, with the reason.
      const message = (e as Error).message;
      this.log.error(`solve ${id} failed: ${(e as Error).stack ?? message}`);
      await this.solves.update({ id, status: 'running' }, { status: 'failed', error: message, finishedAt: new Date() });
      return { solveId: id, planId: null, status: 'failed', elapsedMs: Date.now() - startedAt, strategy: solve.strategy };
    } finally {
      this.running.delete(id);
    }
  }

  /** A DELETE on a solve this process runs: stop the search; the best plan so far is stored. */
  cancel(solveId: string): void {
    this.running.get(solveId)?.stop();
  }

  get activeCount(): number {
    return this.running.size;
  }
}
