import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClusterSignalsModule } from '../cluster-signals/cluster-signals.module';
import { ClustersModule } from '../clusters/clusters.module';
import { IdempotencyModule } from '../common/idempotency.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { ClusterEventEntity } from './cluster-event.entity';
import { ClusterEventsController } from './cluster-events.controller';
import { ClusterEventsRepository } from './cluster-events.repository';
import { ClusterEventsService } from './cluster-events.service';

/** Nodes lost and back; solves read the losses through ClusterEventsService.losses. */
@Module({
  imports: [TypeOrmModule.forFeature([ClusterEventEntity]), ClustersModule, IdempotencyModule, ClusterSignalsModule, WebhooksModule],
  controllers: [ClusterEventsController],
  providers: [ClusterEventsRepository, ClusterEventsService],
  exports: [ClusterEventsService],
})
export class ClusterEventsModule {}
