import { Inject, Injectable } from '@nestjs/common';
import { Config, CONFIG } from '../../config';
import { admissionIssues } from '../../engine/model/admission';
import { ValidationError } from '../../engine/model/errors';
import { loadInstance } from '../../engine/model/model';
import { InstanceDoc, Issue, JobSpec } from '../../engine/model/types';
import { canSee, Principal, tenantScope } from '../auth/principal';
import { BatchesService } from '../batches/batches.service';
import { ClustersService } from '../clusters/clusters.service';
import { HORIZON_FIELDS, INSTANCE_FIELDS, JOB_FIELDS, NODE_FIELDS, STAGE_FIELDS, unknownFields } from '../common/document-validation';
import { pageOf } from '../common/keyset-page';
import { conflict, invalid, notFound, prefixIssues, ProblemException } from '../common/problem';
import type { ForecastEntity } from '../forecasts/forecast.entity';
import { forecastWindow, ForecastWindow, RunNoun } from './forecast-window';
import type { ForecastChoice } from '../forecasts/forecast-choice';
import { ForecastsService } from '../forecasts/forecasts.service';
import { LongWorkService } from '../work/work.service';
import { assembleInstance, normaliseSafetyMargin, sourcePath } from './assemble-instance';
import { CreateSolveDto, SolveDto } from './solve.dto';
import { SOLVE_STATUSES, SolveEntity, SolveReplan, SolveStatus } from './solve.entity';
import { SOLVE_WORK } from './solve.kind';
import { SOLVE_DEFAULTS } from './solve-defaults';
import { SolvesRepository } from './solves.repository';
import { historyKeys, needsPrediction, predictDurations, PredictorChoice, StagePrediction } from '../../engine/predict';
import { RuntimeHistoryService } from '../executions/runtime-history.service';
import { FcWeights, resolveScoreWeights } from '../../engine/evaluate/posum-score';
import { TenantsService } from '../auth/tenants.service';
import { CommitmentsService } from '../commitments/commitments.service';
import { QuotasService } from '../quotas/quotas.service';
import { planAround } from '../../engine/commitments/plan-around';
import { PlanWindow, slotTimeMs } from '../../engine/commitments/holds';
import type { NodeLoss } from '../../engine/commitments/node-loss';
import { lostNodesUnavailable } from './assemble-instance';
import { ClusterEventsService } from '../cluster-events/cluster-events.service';

interface References {
  clusterId: string | null;
  clusterVersion: number | null;
  forecastId: string | null;
  forecastChoice: ForecastChoice;
  batchId: string | null;
  /** Slot 0 on the cluster's time line (SolveEntity.windowStartsAt). */
  windowStartsAt: Date;
}

/** The instances a quote plans on (SolvesService.quoteInstances). */
export interface QuoteInstances {
  instance: InstanceDoc;
  /** The instance without the quota's cap; null when the quota caps nothing (none, or the customer may borrow). */
  uncapped: InstanceDoc | null;
  clusterId: string;
  windowStartsAt: Date;
  warning: string | null;
}

/** What a run by reference asks for besides the references: when it starts, whether a stale forecast will do, and what it is (for messages). */
export interface RunStart {
  startsAt: Date;
  allowStaleForecast: boolean;
  noun: RunNoun;
  /** Solves plan around what committed plans hold on the cluster (the instance's `reserved`); simulations run alone. */
  aroundCommitments?: boolean;
}

/** What a re-plan queues besides its previous solve's settings (SolvesService.enqueueReplan). */
export interface ReplanToQueue {
  instance: InstanceDoc;
  replan: SolveReplan;
  /** The request's, else the previous solve's. */
  strategy?: string;
  timeBudgetMs?: number;
  seed?: number;
  /** The cluster version and forecast the instance was refreshed from; undefined: the previous solve's. */
  clusterVersion?: number;
  forecastId?: string;
  warnings: string[];
}

/** The instance a run by reference runs on, and how it got there (what a policy simulation stores). */
export interface ReferencedInstance {
  instance: InstanceDoc;
  clusterId: string;
  forecastId: string | null;
  forecastChoice: ForecastChoice;
  /** Why the forecast was used although it does not cover the start (allowStaleForecast); null: nothing to say. */
  warning: string | null;
}

@Injectable()
export class SolvesService {
  constructor(
    private readonly solves: SolvesRepository,
    private readonly work: LongWorkService,
    private readonly clusters: ClustersService,
    private readonly forecasts: ForecastsService,
    private readonly batches: BatchesService,
    private readonly history: RuntimeHistoryService,
    private readonly tenants: TenantsService,
    private readonly commitments: CommitmentsService,
    private readonly quotas: QuotasService,
    private readonly clusterEvents: ClusterEventsService,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /** Validates everything first (a rejected request writes nothing), then stores the solve and queues it. */
  async create(p: Principal, dto: CreateSolveDto): Promise<SolveEntity> {
    // One clock for both: a solve without startsAt starts exactly when it is created.
    const now = new Date();
    const scoreWeights = await this.scoreWeights(p, dto);
    const startsAt = dto.startsAt ? new Date(dto.startsAt) : now;
    const built = dto.instance ? this.inline(dto, startsAt) : await this.fromReferences(p, dto, { startsAt, allowStaleForecast: dto.allowStaleForecast === true, noun: 'solve', aroundCommitments: true });
    const { refs } = built;
    const d = SOLVE_DEFAULTS;
    const predictor = dto.predictor ?? d.predictor;
    const { instance, predictions } = await this.predicted(built.historyOf ?? p.tenantId, built.instance, predictor, !!dto.instance);
    this.check(instance, !!dto.instance);
    return this.work.enqueue(SOLVE_WORK, {
      createdAt: now,
      tenantId: p.tenantId,
      kind: 'solve',
      replan: null,
      strategy: dto.strategy ?? d.strategy,
      objective: dto.objective ?? d.objective,
      startsAt,
      warnings: built.warning ? [built.warning] : null,
      timeBudgetMs: dto.timeBudgetMs ?? d.timeBudgetMs,
      scoreWeights,
      seed: dto.seed ?? d.seed,
      shuffleAware: dto.shuffleAware ?? d.shuffleAware,
      transfers: dto.transfers ?? d.transfers,
      predictor,
      predictions: predictions.length ? predictions : null,
      ...refs,
      instance,
      instanceName: instance.name,
      progress: null,
      planId: null,
      cancelRequestedAt: null,
    });
  }

  /**
   * Queues a re-plan of the plan `previous` solved (ReplansService assembled and checked its instance): a solve
   * of kind replan with the solve's options but those the re-plan gives, on the same window, run as any solve
   * (same queue, progress, events, DELETE keeping the best plan). Its plan supersedes the plan re-planned.
   */
  enqueueReplan(previous: SolveEntity, r: ReplanToQueue): Promise<SolveEntity> {
    return this.work.enqueue(SOLVE_WORK, {
      createdAt: new Date(),
      tenantId: previous.tenantId,
      kind: 'replan',
      replan: r.replan,
      strategy: r.strategy ?? previous.strategy,
      objective: previous.objective,
      startsAt: previous.startsAt,
      windowStartsAt: previous.windowStartsAt,
      warnings: r.warnings.length ? r.warnings : null,
      timeBudgetMs: r.timeBudgetMs ?? previous.timeBudgetMs,
      scoreWeights: previous.scoreWeights,
      seed: r.seed ?? previous.seed,
      shuffleAware: previous.shuffleAware,
      transfers: previous.transfers,
      predictor: previous.predictor,
      predictions: previous.predictions,
      clusterId: previous.clusterId,
      clusterVersion: r.clusterVersion ?? previous.clusterVersion,
      forecastId: r.forecastId ?? previous.forecastId,
      forecastChoice: r.forecastId ? 'newest-covering-start' : previous.forecastChoice,
      batchId: previous.batchId,
      instance: r.instance,
      instanceName: r.instance.name,
      progress: null,
      planId: null,
      cancelRequestedAt: null,
    });
  }

  /** A re-plan of the plan still queued or running, or null. */
  unfinishedReplanOf(planId: string): Promise<SolveEntity | null> {
    return this.solves.unfinishedReplanOf(planId);
  }

  /**
   * Strategy portfolio: the request's alpha, beta, gamma, each else the tenant's default (TenantsService);
   * other strategies have none, and a request that gives them one is a 422 naming the field.
   */
  private async scoreWeights(p: Principal, dto: CreateSolveDto): Promise<FcWeights | null> {
    const strategy = dto.strategy ?? SOLVE_DEFAULTS.strategy;
    const defaults = strategy === 'portfolio' ? await this.tenants.scoreWeightsOf(p.tenantId) : undefined;
    const { weights, issues } = resolveScoreWeights(strategy, dto, defaults);
    if (issues.length) throw invalid(issues);
    return weights;
  }

  /**
   * The instance a solve of these references starting at `run.startsAt` would solve (cluster, batch, the
   * forecast named or chosen, and its window), checked as a solve's is: what a policy simulation runs on.
   * Problems are 422s naming the request's fields and the resource `run.noun`.
   */
  async instanceOf(p: Principal, refs: Pick<CreateSolveDto, 'clusterId' | 'batchId' | 'forecastId' | 'horizon' | 'safetyMargin'>, run: RunStart): Promise<ReferencedInstance> {
    const built = await this.fromReferences(p, refs as CreateSolveDto, run);
    const { instance } = await this.predicted(built.historyOf, built.instance, 'auto', false);
    this.check(instance, false);
    return { instance, clusterId: built.refs.clusterId!, forecastId: built.refs.forecastId, forecastChoice: built.refs.forecastChoice, warning: built.warning };
  }

  /**
   * What a quote plans on (QuotesService): the instance a solve of these references (a batch, or jobs given
   * inline) would solve now, around what committed plans hold and capped to the customer's quota; and, when
   * the quota caps it, the same instance uncapped (a job that fits only there is out because of the quota).
   * Inline jobs' problems are named under `jobs`. The instance is checked for size only: the caller's
   * loadInstance checks the rest, and quoteIssues names what it finds.
   */
  async quoteInstances(p: Principal, refs: Pick<CreateSolveDto, 'clusterId' | 'batchId' | 'forecastId' | 'safetyMargin'> & { jobs?: JobSpec[] }, run: RunStart): Promise<QuoteInstances> {
    const built = await this.fromReferences(p, refs as CreateSolveDto & { jobs?: JobSpec[] }, { ...run, aroundCommitments: false });
    const renamed = (e: unknown) => {
      if (refs.jobs && e instanceof ProblemException) for (const i of e.problems) i.path = i.path.replace(/^batch\.jobs/, 'jobs');
      return e;
    };
    const { instance } = await this.predicted(built.historyOf, built.instance, 'auto', false).catch((e) => Promise.reject(renamed(e)));
    // Size only: the quote's own loadInstance checks the rest (quoteIssues names its problems), once.
    const tooLarge = admissionIssues(instance, this.config.admission);
    if (tooLarge.length) throw renamed(invalid(tooLarge.map((i) => ({ ...i, path: sourcePath(i.path) }))));
    const startsAt = built.refs.windowStartsAt;
    const window = { startsAtMs: startsAt.getTime(), slotSeconds: instance.horizon.slotSeconds, slots: instance.horizon.slots };
    const [holds, quota] = await Promise.all([this.commitments.holdsIn(built.refs.clusterId!, window), this.quotas.effective(built.refs.clusterId!, built.historyOf)]);
    const capped = quota !== null && !quota.borrow;
    return {
      instance: planAround(instance, holds, window, built.historyOf, quota),
      uncapped: capped ? planAround(instance, holds, window, built.historyOf, null) : null,
      clusterId: built.refs.clusterId!,
      windowStartsAt: startsAt,
      warning: built.warning,
    };
  }

  /** The engine's issues with an instance of quoteInstances, named where the caller can fix them. */
  quoteIssues(issues: Issue[], inlineJobs: boolean): Issue[] {
    return issues.map((i) => ({ ...i, path: inlineJobs && i.path.startsWith('jobs') ? i.path : sourcePath(i.path) }));
  }

  /**
   * Fills in the durations of stages that give neither work nor durationSeconds from the caller's execution
   * history (POSUM's predictors, src/engine/predict), else their defaultDurationSeconds; a stage nothing can
   * fill is a 422 naming it. Nothing to predict: no query.
   */
  private async predicted(tenantId: string, instance: InstanceDoc, choice: PredictorChoice, inline: boolean): Promise<{ instance: InstanceDoc; predictions: StagePrediction[] }> {
    if (!Array.isArray(instance.jobs) || !instance.jobs.some((j) => Array.isArray(j?.stages) && j.stages.some((s) => s && typeof s === 'object' && needsPrediction(s)))) return { instance, predictions: [] };
    const history = await this.history.forTenant(tenantId, historyKeys(instance));
    const filled = predictDurations(instance, history, choice);
    if (filled.issues.length) throw invalid(inline ? prefixIssues('instance', filled.issues) : filled.issues.map((i) => ({ ...i, path: sourcePath(i.path) })));
    return { instance: filled.doc, predictions: filled.predictions };
  }

  /** Size first, on the document (an instance over the limits is refused before the engine builds anything), then the engine's semantic checks. */
  private check(instance: InstanceDoc, inline: boolean): void {
    const paths = (issues: Issue[]) => (inline ? prefixIssues('instance', issues) : issues.map((i) => ({ ...i, path: sourcePath(i.path) })));
    const tooLarge = admissionIssues(instance, this.config.admission);
    if (tooLarge.length) throw invalid(paths(tooLarge));
    try {
      loadInstance(instance); // stage graph, usage lengths, demands, blocks, ...
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e;
      throw invalid(paths(e.issues));
    }
  }

  private inline(dto: CreateSolveDto, startsAt: Date): { instance: InstanceDoc; refs: References; historyOf?: string; warning?: null } {
    const issues: Issue[] = [];
    for (const f of ['clusterId', 'forecastId', 'batchId', 'horizon'] as const)
      if (dto[f] !== undefined) issues.push({ path: f, message: 'not allowed together with instance' });
    issues.push(...unknownInstanceFields(dto.instance));
    const instance = { ...(dto.instance as unknown as InstanceDoc) };
    delete instance.reference;
    delete instance.provenance;
    const metrics = Array.isArray(instance.metrics) ? instance.metrics : [];
    const sm = normaliseSafetyMargin(dto.safetyMargin, metrics);
    issues.push(...sm.issues);
    if (issues.length) throw invalid(issues);
    if (sm.margin) instance.safetyMargin = sm.margin;
    return { instance, refs: { clusterId: null, clusterVersion: null, forecastId: null, forecastChoice: 'none', batchId: null, windowStartsAt: startsAt } };
  }

  /** The instance from the references; `historyOf`: the batch's tenant, whose execution history predicts its missing durations. */
  private async fromReferences(p: Principal, dto: CreateSolveDto & { jobs?: JobSpec[] }, run: RunStart): Promise<{ instance: InstanceDoc; refs: References; historyOf: string; warning: string | null }> {
    const { startsAt, noun } = run;
    const issues: Issue[] = [];
    if (!dto.clusterId) issues.push({ path: 'clusterId', message: 'required unless a whole instance is given' });
    if (!dto.batchId && !dto.jobs) issues.push({ path: 'batchId', message: 'required unless a whole instance is given' });
    if (issues.length) throw invalid(issues);
    // A customer solves on any lendable cluster (it is what the operator sells) but only with its own batches.
    const cluster = await this.clusters.findById(dto.clusterId!);
    if (!cluster || !(cluster.lendable || canSee(p, cluster.tenantId))) throw notFound('cluster', dto.clusterId!);
    const batch = dto.jobs ? { id: null, name: 'quote', jobs: dto.jobs, tenantId: p.tenantId } : await this.batches.findOwned(p, dto.batchId!);
    if (!batch) throw notFound('batch', dto.batchId!);
    const version = await this.clusters.findVersion(cluster.id, cluster.version);
    if (!version) throw new Error(`cluster ${cluster.id} has no version ${cluster.version}`);
    const { forecast, forecastChoice } = await this.forecastFor(cluster.id, version.version, dto, run);
    const window = forecast ? forecastWindow(forecast, startsAt, run.allowStaleForecast, noun) : null;
    if (window && 'path' in window) throw invalid([window]);
    const horizon = dto.horizon ?? (forecast && window ? { slots: window.slots, slotSeconds: forecast.slotSeconds } : undefined);
    if (!horizon) throw new Error('a run by reference has a forecast or a horizon'); // forecastFor refuses the rest
    if (forecast && window && dto.horizon && (dto.horizon.slots > window.slots || dto.horizon.slotSeconds !== forecast.slotSeconds))
      throw invalid([{ path: 'horizon', message: `must fit the forecast from the ${noun}'s start: at most ${window.slots} slots of ${forecast.slotSeconds} s` }]);
    const sm = normaliseSafetyMargin(dto.safetyMargin, version.metrics);
    if (sm.issues.length) throw invalid(sm.issues);
    const usage = forecast && window ? sliceUsage(forecast.usage, window.offset, horizon.slots) : undefined;
    // Slot 0 on the cluster's time line: the forecast's slot the start falls in (a stale forecast's slot 0 is the start itself).
    const windowStartsAt = forecast && window && !window.warning ? new Date(forecast.startsAt.getTime() + window.offset * forecast.slotSeconds * 1000) : startsAt;
    const assembled = assembleInstance({
      name: `${cluster.name}+${batch.name}`,
      metrics: version.metrics,
      nodes: version.nodes,
      network: version.network,
      jobs: batch.jobs,
      horizon,
      usage,
      safetyMargin: sm.margin,
      customer: batch.tenantId,
    });
    // Size first: the reservations are laid over every slot, so a horizon past the limits must be refused before.
    const h = assembled.horizon as { slots: unknown; slotSeconds: unknown };
    if (!Number.isInteger(h.slots) || (h.slots as number) < 1 || typeof h.slotSeconds !== 'number' || !(h.slotSeconds > 0) || !Number.isFinite(h.slotSeconds))
      throw invalid([{ path: 'horizon', message: 'slots must be an integer >= 1 and slotSeconds a number > 0' }]);
    const tooLarge = admissionIssues(assembled, this.config.admission);
    if (tooLarge.length) throw invalid(tooLarge.map((i) => ({ ...i, path: sourcePath(i.path) })));
    const available = await this.withoutLostNodes(assembled, cluster.id, windowStartsAt);
    const instance = run.aroundCommitments ? await this.aroundCommitments(available, cluster.id, batch.tenantId, windowStartsAt) : available;
    return { instance, refs: { clusterId: cluster.id, clusterVersion: version.version, forecastId: forecast?.id ?? null, forecastChoice, batchId: batch.id, windowStartsAt }, historyOf: batch.tenantId, warning: window?.warning ?? null };
  }

  /**
   * The instance with what committed plans on the cluster hold as `reserved`, and capped to the customer's
   * quota (src/engine/commitments/plan-around.ts): so that its plan can be committed if nothing else is meanwhile.
   */
  private async aroundCommitments(instance: InstanceDoc, clusterId: string, customer: string, startsAt: Date): Promise<InstanceDoc> {
    const window = { startsAtMs: startsAt.getTime(), slotSeconds: instance.horizon.slotSeconds, slots: instance.horizon.slots };
    const [holds, quota] = await Promise.all([this.commitments.holdsIn(clusterId, window), this.quotas.effective(clusterId, customer)]);
    return planAround(instance, holds, window, customer, quota);
  }

  /**
   * The instance with the cluster's lost nodes unavailable over its window (slot 0 at `startsAt`): usage 1 on
   * every metric in each slot a loss reported by a cluster event touches (src/engine/commitments/node-loss.ts).
   * Called once the instance's size has been admitted: it writes a full series for each lost node.
   */
  private async withoutLostNodes(instance: InstanceDoc, clusterId: string, startsAt: Date): Promise<InstanceDoc> {
    const window = { startsAtMs: startsAt.getTime(), slotSeconds: instance.horizon.slotSeconds, slots: instance.horizon.slots };
    return lostNodesUnavailable(instance, window, await this.nodeLosses(clusterId, window));
  }

  /** The nodes of the cluster lost at some time of the window, from its events (ClusterEventsService.losses). */
  nodeLosses(clusterId: string, window: PlanWindow): Promise<NodeLoss[]> {
    return this.clusterEvents.losses(clusterId, window.startsAtMs, slotTimeMs(window, window.slots));
  }

  /**
   * The forecast a run by reference uses: the one the request names; else, with a horizon, none (the nodes
   * idle over that window, as before forecasts were chosen); else the cluster version's newest covering the
   * start (ForecastsService.chooseFor). None to use is a 422 naming forecastId and what would do.
   */
  private async forecastFor(clusterId: string, version: number, dto: CreateSolveDto, run: RunStart): Promise<{ forecast: ForecastEntity | null; forecastChoice: ForecastChoice }> {
    if (dto.forecastId) {
      const forecast = await this.forecasts.findOfCluster(dto.forecastId, clusterId);
      if (!forecast) throw notFound(`forecast of cluster ${clusterId}`, dto.forecastId);
      return { forecast, forecastChoice: 'request' };
    }
    if (dto.horizon) return { forecast: null, forecastChoice: 'none' };
    const chosen = await this.forecasts.chooseFor(clusterId, version, run.startsAt, run.allowStaleForecast);
    if (chosen) return { forecast: chosen.forecast, forecastChoice: chosen.choice };
    throw invalid([
      {
        path: 'forecastId',
        message:
          `no forecast of cluster ${clusterId} (version ${version}) covers ${run.startsAt.toISOString()}, the ${run.noun}'s startsAt: post one covering it, ` +
          'name one (with allowStaleForecast to use it from its slot 0), or give a horizon to plan on idle nodes',
      },
    ]);
  }

  async get(p: Principal, id: string): Promise<SolveEntity> {
    const solve = await this.solves.findScoped(id, tenantScope(p));
    if (!solve) throw notFound('solve', id);
    return solve;
  }

  async list(p: Principal, limit: number, cursor?: string, status?: string): Promise<{ items: SolveEntity[]; nextCursor: string | null }> {
    if (status !== undefined && !SOLVE_STATUSES.includes(status as SolveStatus))
      throw invalid([{ path: 'query:status', message: `must be one of ${SOLVE_STATUSES.join(', ')}` }]);
    return pageOf(await this.solves.page(tenantScope(p), limit, cursor, status as SolveStatus | undefined), limit, (s) => s);
  }

  /**
   * Stops a solve. A queued one is cancelled at once; a running one is asked to stop through Redis and its
   * worker stores the best plan found so far. The database status decides, so the worker and this race safely.
   */
  async cancel(p: Principal, id: string): Promise<SolveEntity> {
    await this.work.cancel(SOLVE_WORK, await this.get(p, id));
    return this.get(p, id);
  }

  /**
   * The filters of a plan's assignments that name no node or job of the instance the solve solved: 422 issues
   * (`query:node`, `query:job`) listing some that exist, so a typo is not answered with an empty page.
   */
  async unknownNames(solveId: string, f: { node?: string; job?: string }): Promise<Issue[]> {
    const names = await this.solves.instanceNames(solveId, f.node, f.job);
    const some = (ids: string[]) => ids.map((x) => JSON.stringify(x)).join(', ') + (ids.length === 10 ? ', ...' : '');
    const issues: Issue[] = [];
    if (!names.hasNode) issues.push({ path: 'query:node', message: `the plan has no node ${JSON.stringify(f.node)}; its nodes: ${some(names.nodes)}` });
    if (!names.hasJob) issues.push({ path: 'query:job', message: `the plan has no job ${JSON.stringify(f.job)}; its jobs: ${some(names.jobs)}` });
    return issues;
  }

  /**
   * The instance a solve solved, as the engine got it: the inline instance, or the one assembled from the
   * cluster, the forecast and the batch when it was created. Its customer's, or an operator's (404 for anyone else).
   */
  async instance(p: Principal, id: string): Promise<InstanceDoc> {
    const solve = await this.get(p, id);
    return (await this.solves.withInstance(solve.id)).instance;
  }

  /**
   * The instance a plan of this solve must fit to be committed now, `reserved` left out (the commit adds what
   * other plans hold under the cluster's lock): the solve's jobs, horizon and safety margin on the cluster's
   * current version, with the forecast the plan was made on, or the one that has replaced it (the newest of
   * the current version covering the plan's start). An inline solve's instance is its own. A plan nothing
   * current can check (its forecast is of an older version and none replaces it) is a 409 saying so.
   */
  async commitBasis(solveId: string, window: { startsAt: Date; slotSeconds: number; slots: number }): Promise<InstanceDoc> {
    const solve = await this.solves.withInstance(solveId);
    const instance: InstanceDoc = { ...solve.instance };
    delete instance.reserved;
    if (!solve.clusterId) return instance;
    const cluster = await this.clusters.findById(solve.clusterId);
    if (!cluster) throw conflict(`cluster ${solve.clusterId} the plan was made on no longer exists`);
    const version = await this.clusters.findVersion(cluster.id, cluster.version);
    if (!version) throw new Error(`cluster ${cluster.id} has no version ${cluster.version}`);
    Object.assign(instance, { metrics: version.metrics, nodes: version.nodes });
    if (version.network) instance.network = version.network;
    else delete instance.network;
    if (!solve.forecastId) return this.withoutLostNodes(instance, cluster.id, window.startsAt); // planned on idle nodes (a horizon, no forecast): so is the check
    // A forecast the solve named is kept while it is of the current version and covers the plan's start (a
    // customer who planned on a cautious quantile is checked on it); a chosen one gives way to the newest.
    const own = await this.forecasts.findOfCluster(solve.forecastId, cluster.id);
    const ownUsable = own !== null && own.clusterVersion === version.version;
    const ownCovers = ownUsable && !('path' in forecastWindow(own, window.startsAt, false, 'solve'));
    const chosen = solve.forecastChoice === 'request' && ownCovers ? null : await this.forecasts.chooseFor(cluster.id, version.version, window.startsAt, false);
    const forecast = chosen?.forecast ?? (ownUsable ? own : null);
    if (!forecast)
      throw conflict(`no forecast of cluster ${cluster.id} version ${version.version} covers the plan's start ${window.startsAt.toISOString()} (the plan's forecast ${solve.forecastId} is of an older version): post one, then commit`);
    if (forecast.slotSeconds !== window.slotSeconds)
      throw conflict(`forecast ${forecast.id}, now the cluster's, has ${forecast.slotSeconds} s slots and the plan ${window.slotSeconds} s ones: solve again on it`);
    const at = forecastWindow(forecast, window.startsAt, true, 'solve') as ForecastWindow;
    instance.usage = sliceUsage(forecast.usage, at.offset, window.slots);
    return this.withoutLostNodes(instance, cluster.id, window.startsAt);
  }

  /** The forecast each solve was made on (null: planned on idle nodes, or a whole instance): what a forecast miss is measured against. */
  forecastIds(ids: string[]): Promise<Map<string, string | null>> {
    return ids.length ? this.solves.forecastIds(ids) : Promise.resolve(new Map());
  }

  /** The solve and the instance it solved, whoever owns it (simulations replay its plan on that instance). */
  withInstance(id: string): Promise<SolveEntity> {
    return this.solves.withInstance(id);
  }

  /** The instance a solve solved as JSON text, not parsed (the charts' threads parse it). */
  async instanceText(id: string): Promise<string> {
    const json = await this.solves.instanceText(id);
    if (json === null) throw new Error(`solve ${id} not found`);
    return json;
  }
}

/** A typo in an inline instance (`deadline` for `deadlineSlot`) must not be solved as if it were absent. */
function unknownInstanceFields(instance: unknown): Issue[] {
  const doc = instance as Record<string, any>;
  const issues = [...unknownFields(doc, 'instance', INSTANCE_FIELDS), ...unknownFields(doc.horizon, 'instance.horizon', HORIZON_FIELDS)];
  if (Array.isArray(doc.nodes)) doc.nodes.forEach((n: unknown, i: number) => issues.push(...unknownFields(n, `instance.nodes[${i}]`, NODE_FIELDS)));
  if (Array.isArray(doc.jobs))
    doc.jobs.forEach((j: any, i: number) => {
      issues.push(...unknownFields(j, `instance.jobs[${i}]`, JOB_FIELDS));
      if (j && Array.isArray(j.stages)) j.stages.forEach((s: unknown, si: number) => issues.push(...unknownFields(s, `instance.jobs[${i}].stages[${si}]`, STAGE_FIELDS)));
    });
  return issues;
}

/** `slots` values of every series from slot `offset` on. */
function sliceUsage(usage: Record<string, Record<string, number[]>>, offset: number, slots: number): Record<string, Record<string, number[]>> {
  const out: Record<string, Record<string, number[]>> = {};
  for (const [node, byMetric] of Object.entries(usage)) {
    out[node] = {};
    for (const [m, series] of Object.entries(byMetric)) out[node][m] = series.slice(offset, offset + slots);
  }
  return out;
}

export function toSolveDto(s: SolveEntity): SolveDto {
  return {
    id: s.id,
    kind: s.kind,
    status: s.status,
    strategy: s.strategy,
    objective: s.objective,
    startsAt: s.startsAt.toISOString(),
    warnings: s.warnings ?? [],
    timeBudgetMs: s.timeBudgetMs,
    scoreWeights: s.scoreWeights,
    seed: s.seed,
    shuffleAware: s.shuffleAware,
    transfers: s.transfers,
    predictor: s.predictor,
    predictions: s.predictions,
    instance: s.instanceName,
    clusterId: s.clusterId,
    clusterVersion: s.clusterVersion,
    forecastId: s.forecastId,
    forecastChoice: s.forecastChoice,
    batchId: s.batchId,
    progress: s.progress,
    planId: s.planId,
    error: s.error,
    replan: s.replan,
    attempts: s.attempts,
    createdAt: s.createdAt.toISOString(),
    startedAt: s.startedAt?.toISOString() ?? null,
    finishedAt: s.finishedAt?.toISOString() ?? null,
  };
}
