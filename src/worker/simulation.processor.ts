import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Job } from 'bullmq';
import { In, Repository } from 'typeorm';
import { PlanEntity } from '../modules/plans/plan.entity';
import { SimulationJobData } from '../modules/queue/simulation-jobs';
import { SimulationEntity } from '../modules/simulations/simulation.entity';
import { SolveEntity } from '../modules/solves/solve.entity';
import { runSimulationInThread, SimulationInputError } from './simulation-runner';

export interface SimulationJobResult {
  simulationId: string;
  status: string;
  elapsedMs: number;
}

/** Runs one queued simulation: claims it, replays the plan in a thread, stores the report or the error. */
@Injectable()
export class SimulationProcessor {
  private readonly log = new Logger('simulations');

  constructor(
    @InjectRepository(SimulationEntity) private readonly simulations: Repository<SimulationEntity>,
    @InjectRepository(PlanEntity) private readonly plans: Repository<PlanEntity>,
    @InjectRepository(SolveEntity) private readonly solves: Repository<SolveEntity>,
  ) {}

  async process(job: Job<SimulationJobData>): Promise<SimulationJobResult> {
    const id = job.data.simulationId;
    const startedAt = Date.now();
    // `running` is claimable too: that is a retry after the worker that had it died.
    const claim = await this.simulations.update({ id, status: In(['queued', 'running']) }, { status: 'running', startedAt: new Date(), attempts: () => 'attempts + 1' });
    if (!claim.affected) return { simulationId: id, status: 'skipped', elapsedMs: 0 };
    const result = (status: string) => ({ simulationId: id, status, elapsedMs: Date.now() - startedAt });
    try {
      const sim = await this.simulations.createQueryBuilder('s').addSelect('s.actualUsage').where('s.id = :id', { id }).getOneOrFail();
      const plan = await this.plans.findOneByOrFail({ id: sim.planId });
      const solve = await this.solves.createQueryBuilder('s').addSelect('s.instance').where('s.id = :id', { id: plan.solveId }).getOneOrFail();
      let report;
      try {
        report = await runSimulationInThread({ instance: solve.instance, plan: plan.document, actual: sim.actualUsage, qos: sim.qos, seed: sim.seed });
      } catch (e) {
        if (!(e instanceof SimulationInputError)) this.log.error(`simulation ${id}: ${(e as Error).stack}`);
        return result(await this.fail(id, e instanceof SimulationInputError ? e.message : `the simulation failed: ${(e as Error).message}`));
      }
      await this.simulations.update({ id, status: 'running' }, { status: 'succeeded', report, error: null, finishedAt: new Date() });
      this.log.log(`simulation ${id}: succeeded, makespan ${Math.round(report.makespanSeconds)} s, ${report.relaunches} relaunches, ${report.unfinishedJobs} unfinished`);
      return result('succeeded');
    } catch (e) {
      // Database or Redis trouble: BullMQ retries; after the last attempt the simulation must not stay running.
      if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) await this.fail(id, `the simulation failed: ${(e as Error).message}`).catch(() => undefined);
      throw e;
    }
  }

  private async fail(id: string, error: string): Promise<string> {
    this.log.log(`simulation ${id} failed: ${error}`);
    await this.simulations.update({ id, status: 'running' }, { status: 'failed', error, finishedAt: new Date() });
    return 'failed';
  }
}
