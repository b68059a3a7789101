import { Inject, Injectable } from '@nestjs/common';
import { Config, CONFIG } from '../../config';
import { simulationParameterIssues } from '../../engine/model/admission';
import { InstanceDoc } from '../../engine/model/types';
import { ValidationError } from '../../engine/model/errors';
import { loadInstance } from '../../engine/model/model';
import { runRequestIssues, validateRuntimeTruth } from '../../engine/simulation';
import { defaultQosPeriod } from '../../engine/simulate/simulator';
import { SIMULATED_POLICIES } from './policy-choices';
import { Principal, tenantScope } from '../auth/principal';
import { pageOf } from '../common/keyset-page';
import { invalid, notFound } from '../common/problem';
import { ForecastsService } from '../forecasts/forecasts.service';
import type { PlanEntity } from '../plans/plan.entity';
import { PlansService } from '../plans/plans.service';
import { SolvesService } from '../solves/solves.service';
import { LongWorkService } from '../work/work.service';
import { actualUsageIssues, trimToWindow } from './actual-usage';
import { CreatePolicySimulationDto, CreateSimulationDto, SimulationDto } from './simulation.dto';
import { ActualSource, SimulationEntity } from './simulation.entity';
import { policyStartIssues, provisionIssues, simulationIssues } from './simulation-issues';
import { portfolioFromRequest } from '../../engine/policies/posum/request';
import { weightsIssues } from '../../engine/evaluate/posum-score';
import { TenantsService } from '../auth/tenants.service';
import { SIMULATION_WORK } from './simulation.kind';
import { PLAN_SIMULATION_DEFAULTS, POLICY_SIMULATION_DEFAULTS } from './simulation-defaults';
import { uuidFieldIssues } from '../common/uuid-param';
import { SimulationsRepository } from './simulations.repository';

/** The actual utilisation replayed, as the simulation's columns. */
type Actual = Pick<SimulationEntity, 'actualSource' | 'actualForecastId' | 'actualUsage'>;

/** Plan simulations: the API validates, stores and queues them; a worker replays the plan (src/worker). */
@Injectable()
export class SimulationsService {
  constructor(
    private readonly simulations: SimulationsRepository,
    private readonly work: LongWorkService,
    private readonly solves: SolvesService,
    private readonly forecasts: ForecastsService,
    private readonly plans: PlansService,
    private readonly tenants: TenantsService,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /** Validates everything first (a rejected request writes and queues nothing), then stores and queues. */
  async create(p: Principal, planId: string, dto: CreateSimulationDto): Promise<SimulationEntity> {
    const plan = await this.plans.get(p, planId);
    const issues = [...simulationIssues(dto), ...simulationParameterIssues(dto, this.config.simulationLimits)];
    if (issues.length) throw invalid(issues);
    const solve = await this.solves.withInstance(plan.solveId);
    checkQosPeriod(solve.instance, dto);
    const actual = await this.actual(solve, dto);
    const truth = runtimeTruth(solve.instance, dto);
    const d = PLAN_SIMULATION_DEFAULTS;
    return this.work.enqueue(SIMULATION_WORK, {
      tenantId: plan.tenantId,
      planId: plan.id,
      qos: dto.qos ?? d.qos,
      seed: dto.seed ?? d.seed,
      qosPeriodSeconds: dto.qosPeriodSeconds ?? defaultQosPeriod(solve.instance.horizon.slotSeconds),
      reduceSlowstart: dto.reduceSlowstart ?? d.reduceSlowstart,
      ...truth,
      ...actual,
      report: null,
    });
  }

  /**
   * Runs an online policy on the instance a solve of the same cluster, batch and forecast would solve,
   * against the actual utilisation given (else the forecast as actual). Validates everything first.
   */
  async createForPolicy(p: Principal, dto: CreatePolicySimulationDto): Promise<SimulationEntity> {
    const issues = [
      ...uuidFieldIssues(dto, ['clusterId', 'batchId', 'forecastId']),
      ...simulationIssues(dto),
      ...runRequestIssues(dto.policy, dto),
      ...policyStartIssues(dto),
      ...simulationParameterIssues(dto, this.config.simulationLimits),
    ];
    if (!SIMULATED_POLICIES.includes(dto.policy))
      issues.push({ path: 'policy', message: `must be one of ${SIMULATED_POLICIES.join(', ')}, got ${JSON.stringify(dto.policy ?? null)}` });
    if (issues.length) throw invalid(issues);
    const posum = portfolioFromRequest(dto, await this.tenants.scoreWeightsOf(p.tenantId));
    // All-zero weights leave POSUM no choice; for other policies they only weigh the report's fc.
    const weightIssues = dto.policy === 'posum' ? weightsIssues(posum.weights) : [];
    if (weightIssues.length) throw invalid(weightIssues);
    // One clock for both: a run without startsAt starts exactly when it is created.
    const now = new Date();
    const startsAt = dto.startsAt ? new Date(dto.startsAt) : now;
    const { instance, clusterId, forecastId, forecastChoice, warning } = await this.solves.instanceOf(p, dto, { startsAt, allowStaleForecast: dto.allowStaleForecast === true, noun: 'simulation' });
    const leaseIssues = provisionIssues(dto.provision, instance);
    if (leaseIssues.length) throw invalid(leaseIssues);
    checkQosPeriod(instance, dto);
    const actual = await this.actual({ instance, clusterId }, dto);
    const truth = runtimeTruth(instance, dto);
    const d = POLICY_SIMULATION_DEFAULTS;
    return this.work.enqueue(SIMULATION_WORK, {
      tenantId: p.tenantId,
      createdAt: now,
      planId: null,
      policy: dto.policy,
      forecastId,
      forecastChoice,
      startsAt,
      warnings: warning ? [warning] : null,
      instance,
      provision: (dto.provision as string | undefined) ?? null,
      posum,
      qos: dto.qos ?? d.qos,
      seed: dto.seed ?? d.seed,
      qosPeriodSeconds: dto.qosPeriodSeconds ?? defaultQosPeriod(instance.horizon.slotSeconds),
      reduceSlowstart: dto.reduceSlowstart ?? d.reduceSlowstart,
      ...truth,
      ...actual,
      report: null,
    });
  }

  /** The actual utilisation to replay, checked against the instance the plan was made for (or the policy runs on). */
  private async actual(solve: { instance: InstanceDoc; clusterId: string | null }, dto: CreateSimulationDto): Promise<Actual> {
    const instance: InstanceDoc = solve.instance;
    if (dto.actualUsage !== undefined) {
      const issues = actualUsageIssues(instance, dto.actualUsage, 'actualUsage');
      if (issues.length) throw invalid(issues);
      return { actualSource: 'usage', actualForecastId: null, actualUsage: dto.actualUsage };
    }
    if (dto.actualForecastId !== undefined) {
      if (!solve.clusterId)
        throw invalid([{ path: 'actualForecastId', message: 'the plan was solved from a whole instance, not from a cluster: give actualUsage instead' }]);
      const forecast = await this.forecasts.findOfCluster(dto.actualForecastId, solve.clusterId);
      if (!forecast) throw notFound(`forecast of cluster ${solve.clusterId}`, dto.actualForecastId);
      const { slots, slotSeconds } = instance.horizon;
      if (forecast.slotSeconds !== slotSeconds || forecast.slots < slots)
        throw invalid([{ path: 'actualForecastId', message: `must cover the plan's window: at least ${slots} slots of ${slotSeconds} s, got ${forecast.slots} of ${forecast.slotSeconds} s` }]);
      const usage = trimToWindow(forecast.usage, slots);
      const issues = actualUsageIssues(instance, usage, 'usage');
      if (issues.length) throw invalid(issues.map((i) => ({ path: 'actualForecastId', message: `forecast ${forecast.id} ${i.path}: ${i.message}` })));
      return { actualSource: 'forecast', actualForecastId: forecast.id, actualUsage: usage };
    }
    return { actualSource: 'plan', actualForecastId: null, actualUsage: null };
  }

  async get(p: Principal, id: string): Promise<SimulationEntity> {
    const simulation = await this.simulations.findScoped(id, tenantScope(p));
    if (!simulation) throw notFound('simulation', id);
    return simulation;
  }

  /** Stops a simulation: a queued one is cancelled at once, a running one is terminated; either way no report is stored. */
  async cancel(p: Principal, id: string): Promise<SimulationEntity> {
    await this.work.cancel(SIMULATION_WORK, await this.get(p, id));
    return this.get(p, id);
  }

  /** A plan's simulations, newest first (the plan's visibility decides: 404 when the caller cannot see it). */
  async list(p: Principal, planId: string, limit: number, cursor?: string): Promise<{ items: SimulationEntity[]; nextCursor: string | null }> {
    const plan: PlanEntity = await this.plans.get(p, planId);
    return pageOf(await this.simulations.pageOfPlan(plan.id, limit, cursor), limit, (s) => s);
  }
}

const DESCRIPTIONS: Record<ActualSource, string> = {
  usage: 'the actualUsage posted with the request',
  forecast: 'the usage of forecast actualForecastId, cut to the plan\'s window',
  plan: 'no actual utilisation was given: the plan\'s own forecast (its instance usage; a policy\'s forecast) was replayed as the actual one, a perfect forecast',
};

export function toSimulationDto(s: SimulationEntity): SimulationDto {
  return {
    id: s.id,
    planId: s.planId,
    policy: s.policy,
    status: s.status,
    qos: s.qos,
    seed: s.seed,
    qosPeriodSeconds: s.qosPeriodSeconds,
    reduceSlowstart: s.reduceSlowstart,
    trueSeconds: s.trueSeconds,
    runtimeSigma: s.runtimeSigma,
    provision: s.provision,
    posum: s.posum as unknown as Record<string, unknown> | null,
    forecastId: s.forecastId,
    forecastChoice: s.forecastChoice,
    startsAt: s.startsAt?.toISOString() ?? null,
    warnings: s.warnings ?? [],
    actualSource: s.actualSource,
    actualForecastId: s.actualForecastId,
    actualDescription: DESCRIPTIONS[s.actualSource],
    report: s.report,
    error: s.error,
    createdAt: s.createdAt.toISOString(),
    startedAt: s.startedAt?.toISOString() ?? null,
    finishedAt: s.finishedAt?.toISOString() ?? null,
  };
}

/** The request's true seconds and runtime spread, checked against the instance (422 naming each path). */
function runtimeTruth(instance: InstanceDoc, dto: CreateSimulationDto): { trueSeconds: Record<string, Record<string, number>> | null; runtimeSigma: number } {
  const none = PLAN_SIMULATION_DEFAULTS.runtimeSigma;
  if (dto.trueSeconds === undefined && dto.runtimeSigma === undefined) return { trueSeconds: null, runtimeSigma: none };
  try {
    const t = validateRuntimeTruth(loadInstance(instance), dto.trueSeconds, dto.runtimeSigma);
    return { trueSeconds: t.trueSeconds ?? null, runtimeSigma: t.runtimeSigma ?? none };
  } catch (e) {
    if (e instanceof ValidationError) throw invalid(e.issues);
    throw e;
  }
}

/** The QoS period cannot exceed the instance's slot (once per slot is the coarsest the controller checks): a 422 naming it. */
function checkQosPeriod(instance: InstanceDoc, dto: CreateSimulationDto): void {
  const slot = instance.horizon.slotSeconds;
  if (dto.qosPeriodSeconds !== undefined && dto.qosPeriodSeconds > slot)
    throw invalid([{ path: 'qosPeriodSeconds', message: `must be at most the slot length, ${slot} s, got ${dto.qosPeriodSeconds}` }]);
}
