import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Principal, tenantScope } from '../auth/principal';
import { invalid, notFound } from '../common/problem';
import { PlanAssignmentEntity, PlanEntity } from './plan.entity';

@Injectable()
export class PlansService {
  constructor(
    @InjectRepository(PlanEntity) private readonly plans: Repository<PlanEntity>,
    @InjectRepository(PlanAssignmentEntity) private readonly assignments: Repository<PlanAssignmentEntity>,
  ) {}

  async get(p: Principal, id: string): Promise<PlanEntity> {
    const plan = await this.plans.findOneBy({ id, ...tenantScope(p) });
    if (!plan) throw notFound('plan', id);
    return plan;
  }

  /** Assignments in plan order, filtered by node and/or job; the cursor is the last row's position. */
  async pageAssignments(p: Principal, id: string, f: { node?: string; job?: string; cursor?: string; limit: number }) {
    const plan = await this.plans.findOne({ where: { id, ...tenantScope(p) }, select: { id: true } });
    if (!plan) throw notFound('plan', id);
    let after = -1;
    if (f.cursor !== undefined) {
      after = Number(f.cursor);
      if (!Number.isInteger(after) || after < 0) throw invalid([{ path: 'query:cursor', message: 'not a cursor this API returned' }]);
    }
    const q = this.assignments.createQueryBuilder('a').where('a.plan_id = :id', { id }).andWhere('a.seq > :after', { after }).orderBy('a.seq', 'ASC').take(f.limit + 1);
    if (f.node) q.andWhere('a.node = :node', { node: f.node });
    if (f.job) q.andWhere('a.job = :job', { job: f.job });
    const rows = await q.getMany();
    const items = rows.slice(0, f.limit);
    return { items, nextCursor: rows.length > f.limit ? String(items[items.length - 1].seq) : null };
  }
}
