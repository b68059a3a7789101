import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiHeader, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPrincipal, Principal } from '../auth/principal';
import { ApiPage } from '../common/api-page';
import { ApiProblems } from '../common/api-problems';
import { pageLimit } from '../common/cursor';
import { IdempotencyInterceptor, SecretInResponse } from '../common/idempotency.interceptor';
import { ApiUuidPath, UuidParam } from '../common/uuid-param';
import { CreatedWebhookDto, CreateWebhookDto, WebhookDeliveryDto, WebhookDeliveryPageDto, WebhookDto, WebhookPageDto } from './webhook.dto';
import { WebhookDeliveryEntity, WebhookSubscriptionEntity } from './webhook.entity';
import { WebhookEvent } from './webhook-events';
import { WebhooksService } from './webhooks.service';

const toWebhook = (s: WebhookSubscriptionEntity): WebhookDto => ({
  id: s.id,
  tenantId: s.tenantId,
  role: s.role,
  url: s.url,
  events: s.events as WebhookEvent[],
  clusterId: s.clusterId,
  createdAt: s.createdAt.toISOString(),
});

const iso = (d: Date | null) => d?.toISOString() ?? null;
const toDelivery = (d: WebhookDeliveryEntity): WebhookDeliveryDto => ({
  id: d.id,
  subscriptionId: d.subscriptionId,
  event: d.event as WebhookEvent,
  eventId: d.eventId,
  status: d.status,
  attempts: d.attempts,
  statusCode: d.statusCode,
  error: d.error,
  attemptLog: d.attemptLog,
  body: JSON.parse(d.body),
  createdAt: d.createdAt.toISOString(),
  lastAttemptAt: iso(d.lastAttemptAt),
  nextAttemptAt: iso(d.nextAttemptAt),
  deliveredAt: iso(d.deliveredAt),
});

/** Webhook subscriptions of the caller's tenant and their delivery logs. Every role may subscribe, to the events of its role (README, Webhooks). */
@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('v1/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @HttpCode(201)
  @UseInterceptors(IdempotencyInterceptor)
  @SecretInResponse('secret')
  @ApiOperation({
    operationId: 'createWebhook',
    summary: 'Subscribe a URL to events; the signing secret is in this response only',
    description:
      'Each event is POSTed to the URL as JSON `{id, type, createdAt, data}` with `Fallow-Event`, `Fallow-Delivery` and `Fallow-Signature: t=<unix s>,v1=<hex HMAC-SHA256 of "<t>.<body>">` ' +
      'under the secret; a non-2xx answer or none within FALLOW_WEBHOOK_TIMEOUT_MS is retried with exponential backoff. The URL\'s host must be one the operator allows ' +
      '(FALLOW_WEBHOOK_ALLOW), else a 422 naming url. The secret is stored encrypted and never shown again: a retry with the same Idempotency-Key answers 409 naming the subscription made.',
  })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'a retry with the same key answers 409 naming the subscription the first request made (its secret is never stored in clear)' })
  @ApiCreatedResponse({ type: CreatedWebhookDto })
  @ApiProblems(401, 409, 422, 429)
  async create(@CurrentPrincipal() p: Principal, @Body() dto: CreateWebhookDto, @Res({ passthrough: true }) res: Response): Promise<CreatedWebhookDto> {
    const { row, secret } = await this.webhooks.create(p, dto);
    res.location(`/v1/webhooks/${row.id}`);
    return { ...toWebhook(row), secret };
  }

  @Get()
  @ApiOperation({ operationId: 'listWebhooks', summary: "Your tenant's webhook subscriptions, newest first", description: "An operator's key lists every tenant's. Never the secrets." })
  @ApiPage('subscriptions')
  @ApiOkResponse({ type: WebhookPageDto })
  @ApiProblems(401, 422, 429)
  async list(@CurrentPrincipal() p: Principal, @Query('cursor') cursor?: string, @Query('limit') limit?: string): Promise<WebhookPageDto> {
    const page = await this.webhooks.list(p, pageLimit(limit), cursor);
    return { items: page.items.map(toWebhook), nextCursor: page.nextCursor };
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getWebhook', summary: 'One webhook subscription (without its secret)', description: "Another tenant's is a 404." })
  @ApiUuidPath('id', 'the subscription')
  @ApiOkResponse({ type: WebhookDto })
  @ApiProblems(400, 401, 404, 429)
  async get(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string): Promise<WebhookDto> {
    return toWebhook(await this.webhooks.get(p, id));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ operationId: 'deleteWebhook', summary: 'Delete a subscription and its delivery log', description: 'Deliveries not yet made are dropped.' })
  @ApiUuidPath('id', 'the subscription')
  @ApiNoContentResponse({ description: 'deleted' })
  @ApiProblems(400, 401, 404, 429)
  async remove(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string): Promise<void> {
    await this.webhooks.remove(p, id);
  }

  @Get(':id/deliveries')
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    summary: "A subscription's delivery log, newest first: each event, its status, attempts and when the next is due",
    description: 'Each delivery with every attempt (time, HTTP status or none, error, duration), the body as sent, and `nextAttemptAt` while a retry is pending.',
  })
  @ApiUuidPath('id', 'the subscription')
  @ApiPage('deliveries')
  @ApiOkResponse({ type: WebhookDeliveryPageDto })
  @ApiProblems(400, 401, 404, 422, 429)
  async deliveries(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string, @Query('cursor') cursor?: string, @Query('limit') limit?: string): Promise<WebhookDeliveryPageDto> {
    const page = await this.webhooks.deliveries(p, id, pageLimit(limit), cursor);
    return { items: page.items.map(toDelivery), nextCursor: page.nextCursor };
  }
}
