import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Principal, tenantScope } from '../auth/principal';
import { invalid, notFound } from '../common/problem';
import { SolvesService } from '../solves/solves.service';
import { PlanDto } from '../common/format.dto';
import { PlanEntity, PlanStatus } from './plan.entity';
import { PlansRepository, PlanToStore } from './plans.repository';

export type { PlanToStore } from './plans.repository';

@Injectable()
export class PlansService {
  constructor(
    private readonly plans: PlansRepository,
    private readonly solves: SolvesService,
  ) {}

  /** The plan if the key may see it (its customer, operators). */
  async get(p: Principal, id: string): Promise<PlanEntity> {
    const plan = await this.plans.findScoped(id, tenantScope(p));
    if (!plan) throw notFound('plan', id);
    return plan;
  }

  /** 404 unless the key may read the plan; reads only its id (a chart served from the cache needs no more). */
  async assertVisible(p: Principal, id: string): Promise<void> {
    if (!(await this.plans.solveIdOf(id, tenantScope(p)))) throw notFound('plan', id);
  }

  /** A plan by id, whoever owns it, or null (the service's own re-plans). */
  find(id: string): Promise<PlanEntity | null> {
    return this.plans.findById(id);
  }

  /** A plan by id, whoever owns it (the worker's simulations). */
  async byId(id: string): Promise<PlanEntity> {
    const plan = await this.plans.findById(id);
    if (!plan) throw new Error(`plan ${id} not found`);
    return plan;
  }

  /** Assignments in plan order, filtered by node and/or job; the cursor is the last row's position. */
  async pageAssignments(p: Principal, id: string, f: { node?: string; job?: string; cursor?: string; limit: number }) {
    const solveId = await this.plans.solveIdOf(id, tenantScope(p));
    if (!solveId) throw notFound('plan', id);
    // A repeated query parameter (?node=a&node=b) arrives as an array: one value each.
    const repeated = (['node', 'job', 'cursor'] as const).filter((k) => f[k] !== undefined && typeof f[k] !== 'string');
    if (repeated.length) throw invalid(repeated.map((k) => ({ path: `query:${k}`, message: 'give it at most once, as one string' })));
    let after = -1;
    if (f.cursor !== undefined) {
      after = Number(f.cursor);
      if (!/^\d{1,10}$/.test(f.cursor) || after > 2 ** 31 - 1) throw invalid([{ path: 'query:cursor', message: 'not a cursor this API returned' }]);
    }
    const rows = await this.plans.page(id, after, f);
    // An empty page for a node or job the plan does not have is a typo, not an idle node: say so.
    if (!rows.length && (f.node !== undefined || f.job !== undefined)) {
      const issues = await this.solves.unknownNames(solveId, f);
      if (issues.length) throw invalid(issues);
    }
    const items = rows.slice(0, f.limit);
    return { items, nextCursor: rows.length > f.limit ? String(items[items.length - 1].seq) : null };
  }

  /** Stores a solve's plan through the kernel's transaction (see PlansRepository.insert). */
  insert(tx: EntityManager, plan: PlanToStore): Promise<string | null> {
    return this.plans.insert(tx, plan);
  }
}

/**
 * A plan's status now: a committed plan whose last task has ended is completed. Derived when read, never
 * written by a read, so that a refused request changes nothing (the schedule and accounting read it the same way).
 */
export function statusNow(plan: Pick<PlanEntity, 'status' | 'endsAt'>, now = new Date()): PlanStatus {
  return plan.status === 'committed' && plan.endsAt.getTime() <= now.getTime() ? 'completed' : plan.status;
}

/** The plan as the API gives it: the stored document with its id, solve, life cycle and window. */
export function toPlanDto(plan: PlanEntity): PlanDto {
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return {
    ...(plan.document as unknown as PlanDto),
    id: plan.id,
    solveId: plan.solveId,
    createdAt: plan.createdAt.toISOString(),
    status: statusNow(plan),
    clusterId: plan.clusterId,
    window: { startsAt: plan.windowStartsAt.toISOString(), slotSeconds: plan.slotSeconds, slots: plan.slots },
    committedAt: iso(plan.committedAt),
    releasedAt: iso(plan.releasedAt),
    completedAt: iso(plan.completedAt ?? (statusNow(plan) === 'completed' ? plan.endsAt : null)),
    borrowing: plan.borrowing,
    releaseReason: plan.releaseReason,
    version: plan.version,
    supersedes: plan.supersedes,
    supersededBy: plan.supersededBy,
  };
}
