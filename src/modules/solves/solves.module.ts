import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BatchesModule } from '../batches/batches.module';
import { ClustersModule } from '../clusters/clusters.module';
import { ExecutionsModule } from '../executions/executions.module';
import { IdempotencyModule } from '../common/idempotency.module';
import { ForecastsModule } from '../forecasts/forecasts.module';
import { WorkModule } from '../work/work.module';
import { CommitmentsModule } from '../commitments/commitments.module';
import { QuotasModule } from '../quotas/quotas.module';
import { ClusterEventsModule } from '../cluster-events/cluster-events.module';
import { SolveEntity } from './solve.entity';
import { SolvesController } from './solves.controller';
import { SolvesRepository } from './solves.repository';
import { SolvesService } from './solves.service';
import { SolveEnded } from './solve-ended';
import { WebhooksModule } from '../webhooks/webhooks.module';

@Module({
  imports: [TypeOrmModule.forFeature([SolveEntity]), WorkModule, IdempotencyModule, ClustersModule, ForecastsModule, BatchesModule, ExecutionsModule, AuthModule, CommitmentsModule, QuotasModule, WebhooksModule, ClusterEventsModule],
  controllers: [SolvesController],
  providers: [SolvesRepository, SolvesService, SolveEnded],
  exports: [SolvesService],
})
export class SolvesModule {}
