import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Principal, tenantScope } from '../auth/principal';
import { invalid, notFound } from '../common/problem';
import { PlanEntity } from './plan.entity';
import { PlansRepository, PlanToStore } from './plans.repository';

export type { PlanToStore } from './plans.repository';

@Injectable()
export class PlansService {
  constructor(private readonly plans: PlansRepository) {}

  async get(p: Principal, id: string): Promise<PlanEntity> {
    const plan = await this.plans.findScoped(id, tenantScope(p));
    if (!plan) throw notFound('plan', id);
    return plan;
  }

  /** 404 unless the key may read the plan; reads only its id (a chart served from the cache needs no more). */
  async assertVisible(p: Principal, id: string): Promise<void> {
    if (!(await this.plans.exists(id, tenantScope(p)))) throw notFound('plan', id);
  }

  /** A plan by id, whoever owns it (the worker's simulations). */
  async byId(id: string): Promise<PlanEntity> {
    const plan = await this.plans.findById(id);
    if (!plan) throw new Error(`plan ${id} not found`);
    return plan;
  }

  /** Assignments in plan order, filtered by node and/or job; the cursor is the last row's position. */
  async pageAssignments(p: Principal, id: string, f: { node?: string; job?: string; cursor?: string; limit: number }) {
    await this.assertVisible(p, id);
    let after = -1;
    if (f.cursor !== undefined) {
      after = Number(f.cursor);
      if (!Number.isInteger(after) || after < 0) throw invalid([{ path: 'query:cursor', message: 'not a cursor this API returned' }]);
    }
    const rows = await this.plans.page(id, after, f);
    const items = rows.slice(0, f.limit);
    return { items, nextCursor: rows.length > f.limit ? String(items[items.length - 1].seq) : null };
  }

  /** Stores a solve's plan through the kernel's transaction (see PlansRepository.insert). */
  insert(tx: EntityManager, plan: PlanToStore): Promise<string | null> {
    return this.plans.insert(tx, plan);
  }
}
