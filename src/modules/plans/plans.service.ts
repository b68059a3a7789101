import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Principal, tenantScope } from '../auth/principal';
import { invalid, notFound } from '../common/problem';
import { SolvesService } from '../solves/solves.service';
import { PlanDto, PlanSummaryDto } from '../common/format.dto';
import { PlanEntity, PlanStatus } from './plan.entity';
import { AssignmentFilter, AssignmentOrder, AssignmentPosition, PlansRepository, PlanToStore } from './plans.repository';

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

  /** The plan without its assignments and placement, with their count (a large plan's page reads this, not the whole document). */
  async summary(p: Principal, id: string): Promise<{ plan: PlanEntity; assignments: number }> {
    const found = await this.plans.findWithout(id, tenantScope(p), ['assignments', 'placement']);
    if (!found) throw notFound('plan', id);
    return found;
  }

  /** 404 unless the key may read the plan; reads only its solve (a chart served from the cache needs no more), which it answers. */
  async assertVisible(p: Principal, id: string): Promise<string> {
    const solveId = await this.plans.solveIdOf(id, tenantScope(p));
    if (!solveId) throw notFound('plan', id);
    return solveId;
  }

  /** A plan by id, whoever owns it, or null (the service's own re-plans). */
  find(id: string): Promise<PlanEntity | null> {
    return this.plans.findById(id);
  }

  /**
   * A plan by id, whoever owns it, for the charts: its document without the chunk placement as JSON text (a chart
   * thread parses it), its solve and strategy.
   */
  async forCharts(id: string): Promise<{ solveId: string; strategy: string; json: string }> {
    const found = await this.plans.documentText(id, ['placement']);
    if (!found) throw new Error(`plan ${id} not found`);
    return found;
  }

  /** A plan by id, whoever owns it (the worker's simulations). */
  async byId(id: string): Promise<PlanEntity> {
    const plan = await this.plans.findById(id);
    if (!plan) throw new Error(`plan ${id} not found`);
    return plan;
  }

  /**
   * Assignments filtered by node, job and time window ([from, to): those running in some slot of it), in plan
   * order or by start slot; the cursor is the last row's position (`seq`, or `start:seq` in start order).
   */
  async pageAssignments(p: Principal, id: string, f: AssignmentQuery) {
    const solveId = await this.plans.solveIdOf(id, tenantScope(p));
    if (!solveId) throw notFound('plan', id);
    const { filter, order, after } = assignmentQuery(f);
    const rows = await this.plans.page(id, after, { ...filter, order, limit: f.limit });
    // An empty page for a node or job the plan does not have is a typo, not an idle node: say so.
    if (!rows.length && (filter.node !== undefined || filter.job !== undefined)) {
      const issues = await this.solves.unknownNames(solveId, filter);
      if (issues.length) throw invalid(issues);
    }
    const items = rows.slice(0, f.limit);
    const last = items[items.length - 1];
    return { items, nextCursor: rows.length > f.limit ? (order === 'start' ? `${last.start}:${last.seq}` : String(last.seq)) : null };
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

/** The plan as GET /v1/plans/{id}/summary gives it: the document without assignments and placement, with its assignments' count. */
export function toPlanSummaryDto(plan: PlanEntity, assignments: number): PlanSummaryDto {
  const { assignments: _a, placement: _p, ...rest } = toPlanDto(plan);
  return { ...rest, assignmentCount: assignments };
}

/** GET /v1/plans/{id}/assignments's query parameters, as they arrive (strings; a repeated one as an array). */
export interface AssignmentQuery {
  node?: string;
  job?: string;
  from?: string;
  to?: string;
  order?: string;
  cursor?: string;
  limit: number;
}

/** Most a slot may be in a query (what a plan's int columns hold). */
const MAX_SLOT = 2 ** 31 - 1;

/** The checked query: every problem is a 422 naming its parameter. */
export function assignmentQuery(f: AssignmentQuery): { filter: AssignmentFilter; order: AssignmentOrder; after: AssignmentPosition } {
  const issues: { path: string; message: string }[] = [];
  // A repeated query parameter (?node=a&node=b) arrives as an array: one value each.
  const repeated = (['node', 'job', 'from', 'to', 'order', 'cursor'] as const).filter((k) => f[k] !== undefined && typeof f[k] !== 'string');
  if (repeated.length) throw invalid(repeated.map((k) => ({ path: `query:${k}`, message: 'give it at most once, as one string' })));
  const slot = (k: 'from' | 'to'): number | undefined => {
    const raw = f[k];
    if (raw === undefined) return undefined;
    if (!/^\d{1,10}$/.test(raw) || Number(raw) > MAX_SLOT) {
      issues.push({ path: `query:${k}`, message: `must be a slot: an integer in [0, ${MAX_SLOT}], got ${JSON.stringify(raw.slice(0, 40))}` });
      return undefined;
    }
    return Number(raw);
  };
  const from = slot('from');
  const to = slot('to');
  if (from !== undefined && to !== undefined && to <= from) issues.push({ path: 'query:to', message: `must be after from (${from}): the window is the slots [from, to)` });
  const order = f.order ?? 'plan';
  if (order !== 'plan' && order !== 'start') issues.push({ path: 'query:order', message: `must be plan or start, got ${JSON.stringify(order.slice(0, 40))}` });
  let after: AssignmentPosition = { start: -1, seq: -1 };
  if (f.cursor !== undefined) {
    const m = order === 'start' ? /^(\d{1,10}):(\d{1,10})$/.exec(f.cursor) : /^()(\d{1,10})$/.exec(f.cursor);
    const start = m && m[1] !== '' ? Number(m[1]) : -1;
    const seq = m ? Number(m[2]) : NaN;
    if (!m || seq > MAX_SLOT || start > MAX_SLOT)
      issues.push({ path: 'query:cursor', message: `not a cursor this API returned${order === 'start' ? ' for order=start' : ''}` });
    else after = { start, seq };
  }
  if (issues.length) throw invalid(issues);
  return { filter: { node: f.node, job: f.job, from, to }, order: order as AssignmentOrder, after };
}
