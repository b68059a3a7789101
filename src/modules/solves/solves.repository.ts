import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { newestFirst } from '../common/keyset-page';
import { SolveEntity, SolveStatus } from './solve.entity';

/** Reads of solves (every status change is the long-work kernel's: LongWorkRepository). */
@Injectable()
export class SolvesRepository {
  constructor(@InjectRepository(SolveEntity) private readonly solves: Repository<SolveEntity>) {}

  findScoped(id: string, scope: { tenantId?: string }): Promise<SolveEntity | null> {
    return this.solves.findOneBy({ id, ...scope });
  }

  /** Newest first, one more than `limit` (see keyset-page.ts). */
  page(scope: { tenantId?: string }, limit: number, cursor?: string, status?: SolveStatus): Promise<SolveEntity[]> {
    const q = this.solves.createQueryBuilder('s');
    if (scope.tenantId) q.andWhere('s.tenant_id = :t', { t: scope.tenantId });
    if (status) q.andWhere('s.status = :status', { status });
    return newestFirst(q, 's', limit, cursor).getMany();
  }

  /** The solve with its instance (not loaded by default: it can be megabytes). */
  withInstance(id: string): Promise<SolveEntity> {
    return this.solves.createQueryBuilder('s').addSelect('s.instance').where('s.id = :id', { id }).getOneOrFail();
  }
}
