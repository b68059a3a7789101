import { Module } from '@nestjs/common';
import { ClustersModule } from '../clusters/clusters.module';
import { CommitmentsModule } from '../commitments/commitments.module';
import { IdempotencyModule } from '../common/idempotency.module';
import { ExecutionsModule } from '../executions/executions.module';
import { ForecastsModule } from '../forecasts/forecasts.module';
import { PlansModule } from '../plans/plans.module';
import { QuotasModule } from '../quotas/quotas.module';
import { SolvesModule } from '../solves/solves.module';
import { ReplansController } from './replans.controller';
import { ReplansService } from './replans.service';

/**
 * Re-planning running plans (issue 39): POST /v1/plans/{id}/replan queues a solve of kind replan. Owns no table:
 * the solve is the solves module's, its plan the plans module's. ReplansService is exported for the service's
 * own re-plans (lost nodes, missed forecasts).
 */
@Module({
  imports: [PlansModule, SolvesModule, ExecutionsModule, ClustersModule, ForecastsModule, CommitmentsModule, QuotasModule, IdempotencyModule],
  controllers: [ReplansController],
  providers: [ReplansService],
  exports: [ReplansService],
})
export class ReplansModule {}
