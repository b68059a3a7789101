import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PlanAssignmentEntity, PlanEntity } from './plan.entity';
import { SolvesModule } from '../solves/solves.module';
import { PlansController } from './plans.controller';
import { PlansRepository } from './plans.repository';
import { PlansService } from './plans.service';
import { PlanCommitmentService } from './plan-commitment.service';
import { PlanVersionsService } from './plan-versions.service';
import { PlanDiffService } from './plan-diff.service';
import { CommitmentsModule } from '../commitments/commitments.module';
import { QuotasModule } from '../quotas/quotas.module';
import { WebhooksModule } from '../webhooks/webhooks.module';

@Module({
  imports: [TypeOrmModule.forFeature([PlanEntity, PlanAssignmentEntity]), SolvesModule, CommitmentsModule, QuotasModule, WebhooksModule],
  controllers: [PlansController],
  providers: [PlansRepository, PlansService, PlanCommitmentService, PlanVersionsService, PlanDiffService],
  exports: [PlansService, PlanVersionsService],
})
export class PlansModule {}
