import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Issue, JobSpec } from '../../engine/model/types';
import { isObject } from '../../engine/model/validate';
import { Principal, tenantScope } from '../auth/principal';
import { byElement, engineIssues, unknownFields } from '../common/document-validation';
import { newestFirst, pageOf } from '../common/keyset-page';
import { invalid, notFound } from '../common/problem';
import { BatchEntity } from './batch.entity';
import { BatchDto, BatchSummaryDto, CreateBatchDto } from './batch.dto';

/** The fields fallow.instance/v1 gives a job and a stage (FORMAT.md). */
export const JOB_FIELDS = ['id', 'customer', 'class', 'releaseSlot', 'deadlineSlot', 'revenue', 'replication', 'stages'];
export const STAGE_FIELDS = ['id', 'tasks', 'after', 'demand', 'work', 'durationSeconds', 'inputMB'];

/** A customer's job batches. */
@Injectable()
export class BatchesService {
  constructor(@InjectRepository(BatchEntity) private readonly batches: Repository<BatchEntity>) {}

  async create(p: Principal, dto: CreateBatchDto): Promise<BatchEntity> {
    const issues = batchIssues(dto.jobs);
    if (issues.length) throw invalid(issues);
    return this.batches.save(this.batches.create({ tenantId: p.tenantId, name: dto.name, jobs: dto.jobs as unknown as JobSpec[] }));
  }

  async get(p: Principal, id: string): Promise<BatchEntity> {
    const batch = await this.batches.findOneBy({ id, ...tenantScope(p) });
    if (!batch) throw notFound('batch', id);
    return batch;
  }

  /** Newest first, without the jobs themselves. */
  async list(p: Principal, limit: number, cursor?: string): Promise<{ items: BatchSummaryDto[]; nextCursor: string | null }> {
    const q = this.batches
      .createQueryBuilder('b')
      .select(['b.id AS id', 'b.name AS name', 'b.created_at AS created_at'])
      .addSelect('jsonb_array_length(b.jobs)', 'job_count');
    const scope = tenantScope(p);
    if (scope.tenantId) q.where('b.tenant_id = :t', { t: scope.tenantId });
    const rows = await newestFirst(q, 'b', limit, cursor).getRawMany<{ id: string; name: string; created_at: Date; job_count: number }>();
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
  const wrapper = {
    name: 'batch',
    horizon: { slots: 2 ** 31 - 1, slotSeconds: 1 },
    metrics: names,
    nodes: [{ id: 'any', capacity: Object.fromEntries(names.map((m) => [m, Number.MAX_SAFE_INTEGER])) }],
    jobs,
  };
  // Every non-empty demand key is a metric of the wrapper, so the engine can only call "" unknown.
  const issues = engineIssues(wrapper, /^jobs(\[|\.|$)/).map((i) =>
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
