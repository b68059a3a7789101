import { Inject, Injectable } from '@nestjs/common';
import { Config, CONFIG } from '../../config';
import { jobsAdmissionIssues } from '../../engine/model/admission';
import { Principal, tenantScope } from '../auth/principal';
import { batchIssues } from './batch-issues';
import { pageOf } from '../common/keyset-page';
import { invalid, notFound } from '../common/problem';
import type { JobSpec } from '../../engine/model/types';
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

export function toBatchDto(b: BatchEntity): BatchDto {
  return { id: b.id, name: b.name, jobs: b.jobs, createdAt: b.createdAt.toISOString() };
}
