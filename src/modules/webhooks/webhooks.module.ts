import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CONFIG } from '../../config';
import { ClustersModule } from '../clusters/clusters.module';
import { IdempotencyModule } from '../common/idempotency.module';
import { AllowList } from './allow-list';
import { WebhookDeliveryEntity, WebhookSubscriptionEntity } from './webhook.entity';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { allowListOf, secretBoxOf } from './webhook-keys';
import { WEBHOOK_QUEUE } from './webhook-queue';
import { SecretBox } from './webhook-secrets';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

/**
 * Webhooks: subscriptions and their delivery logs, `WebhooksService.publish` for the modules where events happen,
 * and `WebhookDeliveryService` for the worker's delivery loop (src/worker/webhook-loop.ts). The queue's connection
 * comes from QueueModule's BullMQ root.
 */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookSubscriptionEntity, WebhookDeliveryEntity]), BullModule.registerQueue({ name: WEBHOOK_QUEUE }), ClustersModule, IdempotencyModule],
  controllers: [WebhooksController],
  providers: [
    WebhooksRepository,
    WebhooksService,
    WebhookDeliveryService,
    { provide: SecretBox, inject: [CONFIG], useFactory: secretBoxOf },
    { provide: AllowList, inject: [CONFIG], useFactory: allowListOf },
  ],
  exports: [WebhooksService, WebhookDeliveryService],
})
export class WebhooksModule {}
