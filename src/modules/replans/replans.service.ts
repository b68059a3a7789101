import { Inject, Injectable } from '@nestjs/common';
import { Config, CONFIG } from '../../config';
import { PlanWindow, slotTimeMs } from '../../engine/commitments/holds';
import { planAround } from '../../engine/commitments/plan-around';
import { admissionIssues } from '../../engine/model/admission';
import { ValidationError } from '../../engine/model/errors';
import { loadInstance, Model } from '../../engine/model/model';
import type { FrozenDoc, InstanceDoc, Issue } from '../../engine/model/types';
import { FrozenFromEvents, frozenFromEvents } from '../../engine/replan/frozen-from-events';
import { Principal } from '../auth/principal';
import { ClustersService } from '../clusters/clusters.service';
import { CommitmentsService } from '../commitments/commitments.service';
import { conflict, invalid, notFound } from '../common/problem';
import { ExecutionsService } from '../executions/executions.service';
import { ForecastsService } from '../forecasts/forecasts.service';
import { windowOf } from '../plans/plan-commitment.service';
import type { PlanEntity } from '../plans/plan.entity';
import { PlanVersionsService } from '../plans/plan-versions.service';
import { PlansService, statusNow } from '../plans/plans.service';
import { QuotasService } from '../quotas/quotas.service';
import { lostNodesUnavailable, sourcePath } from '../solves/assemble-instance';
import type { SolveEntity, SolveReplan } from '../solves/solve.entity';
import type { ReplanRefresh } from '../solves/solve-replan.dto';
import { SolvesService } from '../solves/solves.service';
import { refreshedUsage } from './refresh-usage';
import { CreateReplanDto } from './replan.dto';
import { REPLAN_DEFAULTS } from './replan-defaults';

/** The service re-planning on its own (lost nodes, missed forecasts): it may re-plan any plan, and says why. */
export interface SystemCaller {
  system: true;
  reason: string;
}

/** Who asks for a re-plan: a key's principal (the plan's customer, or an operator), or the service itself. */
export type ReplanCaller = Principal | SystemCaller;

/** How many tasks run again, or moved from what the events said, a re-plan lists (the counts are whole). */
const LISTED_TASKS = 100;

/** The instance a re-plan plans on before its frozen tasks, and what it was refreshed from. */
interface BaseInstance {
  instance: InstanceDoc;
  clusterVersion?: number;
  forecastId?: string;
  warnings: string[];
}

/**
 * Re-planning a running plan (issue 39): a solve of kind `replan` whose instance is the plan's own (its jobs,
 * window and safety margin; the cluster and forecast refreshed unless asked not to; what other committed plans
 * hold read now) with `frozen`: the tasks that have started by now, from the execution events reported on
 * every version of the plan (src/engine/replan/frozen-from-events.ts). It runs as any solve; the worker stores
 * its plan as the plan's next version and moves the plan's commitment to it (PlanVersionsService).
 */
@Injectable()
export class ReplansService {
  constructor(
    private readonly plans: PlansService,
    private readonly versions: PlanVersionsService,
    private readonly solves: SolvesService,
    private readonly executions: ExecutionsService,
    private readonly clusters: ClustersService,
    private readonly forecasts: ForecastsService,
    private readonly commitments: CommitmentsService,
    private readonly quotas: QuotasService,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /**
   * Queues a re-plan of `planId` (CreateReplanDto says what each field does; `{}` takes what the service knows).
   * A key sees only its own plans (404 otherwise); the service (`{ system: true, reason }`) any. Everything is
   * checked first and nothing is stored when something is wrong: a 422 naming every problem, a 409 when the plan
   * cannot be re-planned (superseded, released, being re-planned, or its jobs no longer fit the cluster).
   * The HTTP route's validation pipe checks the body's fields; a caller inside the service gives them as
   * CreateReplanDto's decorators require (the engine still checks the frozen assignments).
   */
  async replan(planId: string, caller: ReplanCaller, body: CreateReplanDto = {}): Promise<SolveEntity> {
    const plan = isSystem(caller) ? await this.plans.find(planId) : await this.plans.get(caller, planId);
    if (!plan) throw notFound('plan', planId);
    await this.assertReplannable(plan);
    const window = windowOf(plan);
    const now = nowOf(body, window, Date.now());
    if (Array.isArray(now)) throw invalid(now);
    const previous = await this.solves.withInstance(plan.solveId);
    const refresh = body.refresh ?? REPLAN_DEFAULTS.refresh;
    const base = await this.baseInstance(previous, plan, now.nowMs, refresh);
    // The cluster as it is now has its lost nodes unavailable over their losses (cluster events); as it was solved, it had them.
    const lost = plan.clusterId && refresh !== 'none' ? await this.solves.nodeLosses(plan.clusterId, window) : [];
    const available = lostNodesUnavailable(base.instance, window, lost);
    const instance = plan.clusterId ? await this.aroundOthers(available, plan, window) : available;
    const lineage = await this.versions.lineage(plan.id);
    const events = await this.executions.taskEvents(lineage.map((v) => v.solveId));
    const assumeStartedAsPlanned = body.assumeStartedAsPlanned ?? REPLAN_DEFAULTS.assumeStartedAsPlanned;
    const frozen = frozenFromEvents({
      model: this.compiled(instance),
      plan: plan.document,
      events: events.map((e) => ({ job: e.job, stage: e.stage, task: e.task, node: e.node, type: e.type, atMs: e.at.getTime() })),
      window,
      nowSlot: now.nowSlot,
      nowMs: now.nowMs,
      assumeStartedAsPlanned,
      explicit: body.frozen,
      lost,
    });
    const replanned: InstanceDoc = { ...instance, frozen: frozen.frozen };
    this.check(replanned, body.frozen?.length ?? 0);
    const record: SolveReplan = {
      planId: plan.id,
      nowSlot: now.nowSlot,
      at: new Date(now.nowMs).toISOString(),
      assumeStartedAsPlanned,
      refresh,
      requestedBy: isSystem(caller) ? 'system' : caller.role === 'operator' ? 'operator' : 'customer',
      reason: isSystem(caller) ? caller.reason : null,
      ...summary(frozen),
      commitment: null,
    };
    return this.solves.enqueueReplan(previous, {
      instance: replanned,
      replan: record,
      strategy: body.strategy,
      timeBudgetMs: body.timeBudgetMs,
      seed: body.seed,
      clusterVersion: base.clusterVersion,
      forecastId: base.forecastId,
      warnings: base.warnings,
    });
  }

  /** Only the newest version of a plan that runs, or may run, is re-planned, by one re-plan at a time. */
  private async assertReplannable(plan: PlanEntity): Promise<void> {
    if (plan.supersededBy) throw conflict(`plan ${plan.id} is superseded by plan ${plan.supersededBy}: re-plan the newest version`);
    if (statusNow(plan) === 'released') throw conflict(`plan ${plan.id} is released: it holds and runs nothing; solve again for a new plan`);
    const running = await this.solves.unfinishedReplanOf(plan.id);
    if (running) throw conflict(`plan ${plan.id} is being re-planned by ${running.id} (${running.status}): follow it (GET /v1/solves/${running.id}) or cancel it first`);
  }

  /**
   * The plan's instance as its solve assembled it (its jobs with their predicted durations, window, safety
   * margin), without what others held then; with `current`, on the cluster's current version and the regular
   * load of its newest forecast covering now (refresh-usage.ts). A plan of an inline instance keeps its own.
   */
  private async baseInstance(previous: SolveEntity, plan: PlanEntity, nowMs: number, refresh: ReplanRefresh): Promise<BaseInstance> {
    const instance: InstanceDoc = { ...previous.instance };
    delete instance.frozen;
    if (!plan.clusterId) return { instance, warnings: [] };
    delete instance.reserved;
    if (refresh === 'none') return { instance, warnings: [] };
    const cluster = await this.clusters.findById(plan.clusterId);
    if (!cluster) throw conflict(`cluster ${plan.clusterId} the plan was made on no longer exists: re-plan with refresh none to plan on it as it was`);
    const version = await this.clusters.findVersion(cluster.id, cluster.version);
    if (!version) throw new Error(`cluster ${cluster.id} has no version ${cluster.version}`);
    Object.assign(instance, { metrics: version.metrics, nodes: version.nodes });
    if (version.network) instance.network = version.network;
    else delete instance.network;
    if (instance.safetyMargin) instance.safetyMargin = Object.fromEntries(Object.entries(instance.safetyMargin).filter(([m]) => version.metrics.includes(m)));
    const at = new Date(nowMs);
    const chosen = await this.forecasts.chooseFor(cluster.id, version.version, at, false);
    const warnings: string[] = [];
    let forecast = chosen?.forecast ?? null;
    if (!forecast) warnings.push(`no forecast of cluster ${cluster.id} version ${version.version} covers ${at.toISOString()}: the plan's own regular load was used`);
    else if (forecast.slotSeconds !== plan.slotSeconds) {
      warnings.push(`forecast ${forecast.id}, the newest covering ${at.toISOString()}, has ${forecast.slotSeconds} s slots and the plan ${plan.slotSeconds} s ones: the plan's own regular load was used`);
      forecast = null;
    }
    const series = forecast ? { startsAtMs: forecast.startsAt.getTime(), slotSeconds: forecast.slotSeconds, slots: forecast.slots, usage: forecast.usage } : { startsAtMs: 0, slotSeconds: plan.slotSeconds, slots: 0, usage: {} };
    instance.usage = refreshedUsage(instance.usage, series, windowOf(plan), version.nodes.map((n) => n.id), version.metrics);
    return { instance, clusterVersion: version.version, forecastId: forecast?.id, warnings };
  }

  /**
   * The instance with what other committed plans hold now as `reserved`, capped to the customer's quota (as a
   * solve's); what the plan's own lineage holds (the plan, or an earlier version whose re-plan could not take its
   * commitment over) is left out: those are the tasks being re-planned.
   */
  private async aroundOthers(instance: InstanceDoc, plan: PlanEntity, window: PlanWindow): Promise<InstanceDoc> {
    const own = (await this.versions.committedVersion(plan.id)) ?? plan.id;
    const [holds, quota] = await Promise.all([this.commitments.holdsIn(plan.clusterId!, window, own), this.quotas.effective(plan.clusterId!, plan.tenantId)]);
    return planAround(instance, holds, window, plan.tenantId, quota);
  }

  /** The instance compiled; the plan's jobs no longer fitting the cluster as it is now is a conflict naming the parts. */
  private compiled(instance: InstanceDoc): Model {
    try {
      return loadInstance(instance);
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e;
      const issues = e.issues.map((i) => ({ ...i, path: sourcePath(i.path) }));
      throw conflict(`the plan's jobs cannot be planned on the cluster as it is now (${issues[0].path}: ${issues[0].message}); re-plan with refresh none to plan on it as it was`, issues);
    }
  }

  /**
   * Size, then the engine's own checks of the instance with its frozen assignments, each problem named where
   * the caller can act: the request's own frozen assignments as `frozen[i]`, those the service derived as
   * `frozen` naming the task, the rest where the parts came from (batch, cluster, forecast).
   */
  private check(instance: InstanceDoc, explicit: number): void {
    const tooLarge = admissionIssues(instance, this.config.admission);
    if (tooLarge.length) throw invalid(tooLarge.map((i) => ({ ...i, path: sourcePath(i.path) })));
    try {
      loadInstance(instance);
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e;
      throw invalid(e.issues.map((i) => requestIssue(i, instance.frozen?.assignments ?? [], explicit)), 'the re-plan cannot keep what has started; see problems');
    }
  }
}

function isSystem(caller: ReplanCaller): caller is SystemCaller {
  return (caller as SystemCaller).system === true;
}

/**
 * The slot of now in the plan's window and that instant: the request's nowSlot (its start), its `at`, else the
 * clock. A now outside the window is a 422 (a plan is re-planned while it runs).
 */
export function nowOf(body: Pick<CreateReplanDto, 'nowSlot' | 'at'>, window: PlanWindow, clockMs: number): { nowSlot: number; nowMs: number } | Issue[] {
  if (body.nowSlot !== undefined && body.at !== undefined) return [{ path: 'nowSlot', message: 'give nowSlot or at, not both' }];
  const range = `[${new Date(window.startsAtMs).toISOString()}, ${new Date(slotTimeMs(window, window.slots)).toISOString()})`;
  if (body.nowSlot !== undefined) {
    if (body.nowSlot >= window.slots) return [{ path: 'nowSlot', message: `must be a slot of the plan's window, 0 to ${window.slots - 1}, got ${body.nowSlot}` }];
    return { nowSlot: body.nowSlot, nowMs: slotTimeMs(window, body.nowSlot) };
  }
  const nowMs = body.at !== undefined ? Date.parse(body.at) : clockMs;
  const nowSlot = Math.floor((nowMs - window.startsAtMs) / (window.slotSeconds * 1000));
  if (nowSlot >= 0 && nowSlot < window.slots) return { nowSlot, nowMs };
  const what = body.at !== undefined ? `at ${body.at}` : `now (${new Date(nowMs).toISOString()}, the default)`;
  return [{ path: 'at', message: `${what} is outside the plan's window ${range}: a plan is re-planned while it runs; give at or nowSlot inside it` }];
}

/** An engine issue of the re-plan's instance, named where the caller can act on it. */
function requestIssue(i: Issue, frozen: FrozenDoc['assignments'], explicit: number): Issue {
  const m = /^frozen\.assignments\[(\d+)\](.*)$/.exec(i.path);
  if (m && Number(m[1]) < explicit) return { path: `frozen[${m[1]}]${m[2]}`, message: i.message };
  if (m) {
    const a = frozen[Number(m[1])];
    return { path: 'frozen', message: `task ${a.job}/${a.stage}/${a.task}, frozen from the execution events at node "${a.node}" slot ${a.start}: ${i.message}` };
  }
  if (i.path === 'frozen.nowSlot') return { path: 'nowSlot', message: i.message };
  if (i.path.startsWith('frozen')) return { path: 'frozen', message: `the frozen tasks (the request's and those the execution events give): ${i.message}` };
  return { ...i, path: sourcePath(i.path) };
}

/** What the re-plan records of its frozen tasks (SolveReplan). */
function summary(f: FrozenFromEvents): Pick<SolveReplan, 'frozen' | 'rerun' | 'adjusted' | 'ignoredEvents'> {
  const frozen = { explicit: 0, running: 0, finished: 0, assumed: 0 };
  for (const s of f.sources) frozen[s]++;
  const count = (reason: string) => f.rerun.filter((r) => r.reason === reason).length;
  return {
    frozen,
    rerun: {
      killed: count('killed'),
      nodeLost: count('node-lost'),
      afterRerun: count('after-rerun'),
      beforePredecessorsEnd: count('before-predecessors-end'),
      tasks: f.rerun.slice(0, LISTED_TASKS),
    },
    adjusted: { count: f.adjusted.length, tasks: f.adjusted.slice(0, LISTED_TASKS) },
    ignoredEvents: f.ignoredEvents,
  };
}
