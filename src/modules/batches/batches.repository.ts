import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { newestFirst } from '../common/keyset-page';
import { BatchEntity } from './batch.entity';

/** A batch without its jobs, as the listing reads it (snake_case: raw rows). */
export interface BatchSummaryRow {
  id: string;
  name: string;
  created_at: Date;
  job_count: number;
}

/** The batches table. */
@Injectable()
export class BatchesRepository {
  constructor(@InjectRepository(BatchEntity) private readonly batches: Repository<BatchEntity>) {}

  insert(fields: Partial<BatchEntity>): Promise<BatchEntity> {
    return this.batches.save(this.batches.create(fields));
  }

  /** The batch, within a tenant when `tenantId` is given. */
  findOne(id: string, tenantId?: string): Promise<BatchEntity | null> {
    return this.batches.findOneBy({ id, ...(tenantId !== undefined ? { tenantId } : {}) });
  }

  /** Newest first without the jobs themselves (one extra row: see newestFirst). */
  list(tenantId: string | undefined, limit: number, cursor?: string): Promise<BatchSummaryRow[]> {
    const q = this.batches
      .createQueryBuilder('b')
      .select(['b.id AS id', 'b.name AS name', 'b.created_at AS created_at'])
      .addSelect('jsonb_array_length(b.jobs)', 'job_count');
    if (tenantId) q.where('b.tenant_id = :t', { t: tenantId });
    return newestFirst(q, 'b', limit, cursor).getRawMany<BatchSummaryRow>();
  }
}
