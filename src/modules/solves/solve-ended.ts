import { Injectable, OnModuleInit } from '@nestjs/common';
import { WorkEndings } from '../work/work-endings';
import { WebhooksService } from '../webhooks/webhooks.service';
import { SOLVE_WORK } from './solve.kind';
import { SolvesRepository } from './solves.repository';
import { toSolveDto } from './solves.service';

/**
 * Publishes `solve.ended` (webhooks) when a solve reaches succeeded, failed or cancelled, in whichever process
 * ended it: the payload is the solve as `GET /v1/solves/{id}` shows it, for its customer's subscriptions (and
 * operators'), on its cluster. A re-plan that stored a plan also publishes `plan.replanned`: the plan
 * re-planned, the new version and the re-plan's outcome (what moved, what became of the commitment).
 */
@Injectable()
export class SolveEnded implements OnModuleInit {
  constructor(
    private readonly endings: WorkEndings,
    private readonly solves: SolvesRepository,
    private readonly webhooks: WebhooksService,
  ) {}

  onModuleInit(): void {
    this.endings.on(SOLVE_WORK, (id) => this.announce(id));
  }

  private async announce(id: string): Promise<void> {
    const solve = await this.solves.findScoped(id, {});
    if (!solve) return;
    const dto = toSolveDto(solve);
    await this.webhooks.publish('solve.ended', { tenantIds: [solve.tenantId], clusterId: solve.clusterId, payload: { solve: dto } });
    if (dto.kind === 'replan' && dto.planId && dto.replan)
      await this.webhooks.publish('plan.replanned', { tenantIds: [solve.tenantId], clusterId: solve.clusterId, payload: { plan: { id: dto.planId, supersedes: dto.replan.planId }, replan: dto.replan, solveId: dto.id } });
  }
}
