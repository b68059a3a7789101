import { Inject, Injectable } from '@nestjs/common';
import { Config, CONFIG } from '../../config';
import { join } from 'node:path';
import type { InstanceDoc } from '../../engine/model/types';
import type { SimReport } from '../../engine/simulation';
import type { ThreadError } from '../../engine/threads/run-in-thread';
import { PlansService } from '../../modules/plans/plans.service';
import type { SimulationEntity } from '../../modules/simulations/simulation.entity';
import { SIMULATION_WORK } from '../../modules/simulations/simulation.kind';
import { SolvesService } from '../../modules/solves/solves.service';
import { Completion, Prepared, WorkHandler } from '../../modules/work/work-handler';
import { simulationDeadline } from './simulation-deadline';
import type { SimulationInput } from './simulation.thread';

/** A simulation: a plan replayed on the instance it was solved for, or an online policy run on its stored instance; the report is stored. */
@Injectable()
export class SimulationHandler implements WorkHandler<SimulationEntity, SimulationInput, never, SimReport> {
  readonly kind = SIMULATION_WORK;
  readonly threadFile = join(__dirname, 'simulation.thread.js');

  constructor(
    private readonly plans: PlansService,
    private readonly solves: SolvesService,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async prepare(sim: SimulationEntity): Promise<Prepared<SimulationInput>> {
    // NULL: stored before the period existed, when the controller checked once per slot (migration QosPeriod).
    const period = (instance: InstanceDoc) => sim.qosPeriodSeconds ?? instance.horizon.slotSeconds;
    const common = { actual: sim.actualUsage, qos: sim.qos, seed: sim.seed, reduceSlowstart: sim.reduceSlowstart, trueSeconds: sim.trueSeconds, runtimeSigma: sim.runtimeSigma };
    if (sim.planId === null) {
      if (!sim.instance || !sim.policy) return { fail: 'the simulation has neither a plan nor a policy and its instance' };
      return this.withDeadline({ instance: sim.instance, plan: null, policy: sim.policy, provision: sim.provision, posum: sim.posum, qosPeriodSeconds: period(sim.instance), ...common });
    }
    const plan = await this.plans.byId(sim.planId);
    const solve = await this.solves.withInstance(plan.solveId);
    return this.withDeadline({ instance: solve.instance, plan: plan.document, policy: null, qosPeriodSeconds: period(solve.instance), ...common });
  }

  private withDeadline(input: SimulationInput): Prepared<SimulationInput> {
    return { input, deadline: simulationDeadline(input, this.config.simulationMaxSeconds) };
  }

  failure(_sim: SimulationEntity, e: ThreadError): string {
    return e.reason === 'input' ? e.message : `the simulation failed: ${e.message}`;
  }

  async complete(_sim: SimulationEntity, report: SimReport): Promise<Completion> {
    return {
      store: async () => ({ report }),
      summary: `makespan ${Math.round(report.makespanSeconds)} s, ${report.relaunches} relaunches, ${report.unfinishedJobs} unfinished`,
    };
  }
}
