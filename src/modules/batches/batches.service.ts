import { Inject, Injectable } from '@nestjs/common';
import { Config, CONFIG } from '../../config';
import { jobsAdmissionIssues } from '../../engine/model/admission';
import { Issue, JobSpec } from '../../engine/model/types';
import { isObject } from '../../engine/model/validate';
import { Principal, tenantScope } from '../auth/principal';
import { byElement, engineIssues, JOB_FIELDS, STAGE_FIELDS, unknownFields } from '../common/document-validation';
import { pageOf } from '../common/keyset-page';
import { invalid, notFound } from '../common/problem';
import { BatchEntity } from './batch.entity';
import { BatchDto, BatchPredictionsDto, BatchSummaryDto, CreateBatchDto } from './batch.dto';
import { historyKeys, predictDurations, PredictorChoice } from '../../engine/predict';
import { RuntimeHistoryService } from '../executions/runtime-history.service';
import { BatchesRepository } from './batches.repository';

/** A customer's job batches. */
@Injectable()
export class BatchesService {
  constructor(
    private readonly repo: BatchesRepository,
    private readonly history: RuntimeHistoryService,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async create(p: Principal, dto: CreateBatchDto): Promise<BatchEntity> {
    // The size limits with the other problems: a batch too large to ever solve is refused when posted.
    const issues = [...batchIssues(dto.jobs), ...jobsAdmissionIssues(dto.jobs, this.config.admission)];
    if (issues.length) throw invalid(issues);
    return this.repo.insert({ tenantId: p.tenantId, name: dto.name, jobs: dto.jobs as unknown as JobSpec[] });
  }

  async get(p: Principal, id: string): Promise<BatchEntity> {
    const batch = await this.findOwned(p, id);
    if (!batch) throw notFound('batch', id);
    return batch;
  }

  /**
   * The durations a solve would predict for the batch's stages that give neither work nor durationSeconds,
   * from the batch owner's execution history, without solving; and the stages nothing could predict.
   */
  async predictions(p: Principal, id: string, choice: PredictorChoice): Promise<BatchPredictionsDto> {
    const batch = await this.get(p, id);
    const history = await this.history.forTenant(batch.tenantId, historyKeys({ jobs: batch.jobs }));
    const { predictions, issues } = predictDurations({ jobs: batch.jobs }, history, choice);
    return { batchId: batch.id, predictor: choice, predictions, unpredictable: issues };
  }

  /** The batch if the caller may use it (operators: any), else null: a solve names only its own batches. */
  findOwned(p: Principal, id: string): Promise<BatchEntity | null> {
    return this.repo.findOne(id, tenantScope(p).tenantId);
  }

  /** Newest first, without the jobs themselves. */
  async list(p: Principal, limit: number, cursor?: string): Promise<{ items: BatchSummaryDto[]; nextCursor: string | null }> {
    const rows = await this.repo.list(tenantScope(p).tenantId, limit, cursor);
    const page = pageOf(rows, limit, (r) => ({ createdAt: r.created_at, id: r.id }));
    return {
      items: page.items.map((r) => ({ id: r.id, name: r.name, jobCount: Number(r.job_count), createdAt: r.created_at.toISOString() })),
      nextCursor: page.nextCursor,
    };
  }
}

/**
 * Everything wrong with a batch's jobs. The engine's validator runs on a wrapper instance whose metrics are
 * the demand keys the jobs use, with one node large enough for anything and a very long window, so only the
 * jobs themselves can be wrong (stage graph cycles, unknown `after` stages, work vs durationSeconds,
 * duplicate ids, ...). Whether a cluster has the demanded metrics is checked when a solve uses the batch.
 */
export function batchIssues(jobs: unknown[]): Issue[] {
  const metrics = new Set<string>();
  for (const j of jobs)
    if (isObject(j) && Array.isArray((j as JobSpec).stages))
      for (const s of (j as JobSpec).stages) if (isObject(s) && isObject(s.demand)) for (const m of Object.keys(s.demand)) if (m.length > 0) metrics.add(m);
  const names = metrics.size ? [...metrics] : ['cpu'];
  // Blocks name nodes of the cluster a solve will pair the batch with: checked then, not here; the wrapper
  // has every node they mention, so only their shape (one list per task, strings, no repeats) is checked.
  const nodeIds = new Set<string>(['any']);
  for (const j of jobs)
    if (isObject(j) && Array.isArray((j as JobSpec).stages))
      for (const s of (j as JobSpec).stages) if (isObject(s) && Array.isArray(s.blocks)) for (const r of s.blocks) if (Array.isArray(r)) for (const n of r) if (typeof n === 'string') nodeIds.add(n);
  const capacity = Object.fromEntries(names.map((m) => [m, Number.MAX_SAFE_INTEGER]));
  const wrapper = {
    name: 'batch',
    horizon: { slots: 2 ** 31 - 1, slotSeconds: 1 },
    metrics: names,
    nodes: [...nodeIds].map((id) => ({ id, capacity })),
    jobs,
  };
  // Every non-empty demand key is a metric of the wrapper, so the engine can only call "" unknown.
  // A stored batch may leave a stage's durations out: a solve predicts them from the runtime history.
  const issues = engineIssues(wrapper, /^jobs(\[|\.|$)/, { durationsMayBePredicted: true }).map((i) =>
    i.path.endsWith('.demand.') ? { path: `${i.path.slice(0, -1)}[""]`, message: 'a metric name must be a non-empty string' } : i,
  );
  jobs.forEach((j, i) => {
    issues.push(...unknownFields(j, `jobs[${i}]`, JOB_FIELDS));
    if (isObject(j) && Array.isArray((j as JobSpec).stages))
      (j as JobSpec).stages.forEach((s, si) => issues.push(...unknownFields(s, `jobs[${i}].stages[${si}]`, STAGE_FIELDS)));
  });
  return byElement(issues);
}

export function toBatchDto(b: BatchEntity): BatchDto {
  return { id: b.id, name: b.name, jobs: b.jobs, createdAt: b.createdAt.toISOString() };
}
