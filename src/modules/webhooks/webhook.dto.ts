import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import type { Role } from '../auth/api-key.entity';
import { DELIVERY_STATUSES, DeliveryStatus } from './webhook.entity';
import { SUBSCRIBER_ROLES, WEBHOOK_EVENTS, WebhookEvent } from './webhook-events';
import { CALLER_SECRET } from './webhook-secrets';

/* The fields are checked by WebhooksService.create (against the allow-list, the key's role and the clusters it sees), so that every problem is named at once. */

export class CreateWebhookDto {
  @ApiProperty({
    example: 'https://hooks.example.com/fallow',
    maxLength: 2000,
    description: 'where events are POSTed: http or https, no user name or password; its host must be one the operator allows (FALLOW_WEBHOOK_ALLOW), else a 422 naming url',
  })
  @Allow()
  url!: string;

  @ApiProperty({
    type: 'array',
    items: { type: 'string', enum: [...WEBHOOK_EVENTS] },
    minItems: 1,
    example: ['solve.ended', 'commit.refused'],
    description: "the events to deliver, each once; a customer's key may ask for solve.ended, plan.replanned and commit.refused (its own), a farmer's for node.lost (its clusters'), an operator's for any (every tenant's)",
  })
  @Allow()
  events!: WebhookEvent[];

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: "only this cluster's events (one the key can see: a farmer's own, a lendable one for a customer); left out: every cluster's, and events about no cluster" })
  @Allow()
  clusterId?: string | null;

  @ApiPropertyOptional({
    minLength: CALLER_SECRET.min,
    maxLength: CALLER_SECRET.max,
    description: 'the signing secret, printable ASCII without spaces; left out: the server generates one (whsec_ and 256 random bits). Either way it is in the creation response only',
  })
  @Allow()
  secret?: string;
}

export class WebhookDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) tenantId!: string;
  @ApiProperty({ enum: SUBSCRIBER_ROLES, description: "the role of the key that made it: it hears that role's events" }) role!: Role;
  @ApiProperty() url!: string;
  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...WEBHOOK_EVENTS] } }) events!: WebhookEvent[];
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) clusterId!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class CreatedWebhookDto extends WebhookDto {
  @ApiProperty({ description: 'the signing secret: shown this once (it is stored encrypted and never shown again); verify each delivery\'s Fallow-Signature with it (README, Webhooks)' })
  secret!: string;
}

export class WebhookPageDto {
  @ApiProperty({ type: [WebhookDto] }) items!: WebhookDto[];
  @ApiProperty({ type: String, nullable: true, description: 'pass as ?cursor= for the next page; null on the last page' }) nextCursor!: string | null;
}

export class DeliveryAttemptDto {
  @ApiProperty({ minimum: 1 }) attempt!: number;
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiProperty({ type: Number, nullable: true, description: "the receiver's HTTP status; null: no answer (refused, unreachable, timed out)" }) statusCode!: number | null;
  @ApiProperty({ type: String, nullable: true }) error!: string | null;
  @ApiProperty() durationMs!: number;
}

export class WebhookDeliveryDto {
  @ApiProperty({ format: 'uuid', description: 'also the Fallow-Delivery header' }) id!: string;
  @ApiProperty({ format: 'uuid' }) subscriptionId!: string;
  @ApiProperty({ enum: [...WEBHOOK_EVENTS] }) event!: WebhookEvent;
  @ApiProperty({ format: 'uuid', description: "the event's id (the body's id), the same in every subscription's delivery of it" }) eventId!: string;
  @ApiProperty({ enum: DELIVERY_STATUSES, description: 'pending (not yet delivered; nextAttemptAt says when it is tried), succeeded (a 2xx), failed (every attempt failed, or the address is not allowed)' }) status!: DeliveryStatus;
  @ApiProperty({ description: 'attempts made so far' }) attempts!: number;
  @ApiProperty({ type: Number, nullable: true, description: "the last attempt's HTTP status" }) statusCode!: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'why the last attempt failed' }) error!: string | null;
  @ApiProperty({ type: [DeliveryAttemptDto], description: 'every attempt, first first' }) attemptLog!: DeliveryAttemptDto[];
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'the body as sent: {id, type, createdAt, data}' }) body!: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastAttemptAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'when the next attempt is due; null when none will be made' }) nextAttemptAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) deliveredAt!: string | null;
}

export class WebhookDeliveryPageDto {
  @ApiProperty({ type: [WebhookDeliveryDto] }) items!: WebhookDeliveryDto[];
  @ApiProperty({ type: String, nullable: true, description: 'pass as ?cursor= for the next page; null on the last page' }) nextCursor!: string | null;
}
