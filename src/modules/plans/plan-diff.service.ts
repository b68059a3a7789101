import { Injectable } from '@nestjs/common';
import { loadInstance } from '../../engine/model/model';
import { planDiff } from '../../engine/replan/diff';
import { Principal, tenantScope } from '../auth/principal';
import { invalid } from '../common/problem';
import { UUID } from '../common/uuid-param';
import { SolvesService } from '../solves/solves.service';
import { PlanDiffDto } from './plans.dto';
import { PlansRepository } from './plans.repository';
import { PlansService } from './plans.service';

/**
 * What changed from one plan to another (GET /v1/plans/{id}/diff?against=): any two plans of one cluster the
 * caller can see (a re-plan and the plan it supersedes, two solves of a batch), or two versions of one plan of
 * an inline instance. Each is read on the instance its solve solved (src/engine/replan/diff.ts).
 */
@Injectable()
export class PlanDiffService {
  constructor(
    private readonly plans: PlansService,
    private readonly repo: PlansRepository,
    private readonly solves: SolvesService,
  ) {}

  async diff(p: Principal, id: string, against: unknown, limit: number): Promise<PlanDiffDto> {
    const after = await this.plans.get(p, id);
    const bad = (message: string) => invalid([{ path: 'query:against', message }]);
    if (against === undefined || against === '') throw bad('required: the id of the plan to compare this one with (its previous version: supersedes)');
    if (typeof against !== 'string' || !UUID.test(against)) throw bad('must be one plan id (a UUID)');
    const before = await this.repo.findScoped(against, tenantScope(p));
    // Not the caller's and not there answer alike: the id names nothing it can compare with.
    if (!before) throw bad(`no plan ${against} that you can see`);
    const sameCluster = after.clusterId !== null && after.clusterId === before.clusterId;
    if (!sameCluster && !(await this.oneLineage(after.id, before.id)))
      throw bad(`plan ${against} is of ${before.clusterId ? `cluster ${before.clusterId}` : 'an inline instance'} and plan ${id} of ${after.clusterId ? `cluster ${after.clusterId}` : 'an inline instance'}: only plans of one cluster, or versions of one plan, compare`);
    const offsetSlots = (before.windowStartsAt.getTime() - after.windowStartsAt.getTime()) / (after.slotSeconds * 1000);
    if (before.slotSeconds !== after.slotSeconds || Math.abs(offsetSlots - Math.round(offsetSlots)) > 1e-9)
      throw bad(`plan ${against}'s slots (${before.slotSeconds} s from ${before.windowStartsAt.toISOString()}) do not fall on plan ${id}'s (${after.slotSeconds} s from ${after.windowStartsAt.toISOString()}): its tasks cannot be compared slot by slot`);
    const [a, b] = await Promise.all([this.solves.withInstance(after.solveId), this.solves.withInstance(before.solveId)]);
    const d = planDiff({ model: loadInstance(b.instance), plan: before.document, offsetSlots: Math.round(offsetSlots) }, { model: loadInstance(a.instance), plan: after.document }, limit);
    return { planId: after.id, against: before.id, offsetSlots: Math.round(offsetSlots), ...d };
  }

  /** Whether one plan is an earlier version of the other. */
  private async oneLineage(x: string, y: string): Promise<boolean> {
    const [ofX, ofY] = await Promise.all([this.repo.lineage(x), this.repo.lineage(y)]);
    return ofX.some((v) => v.id === y) || ofY.some((v) => v.id === x);
  }
}
