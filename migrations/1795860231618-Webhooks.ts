import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Webhooks (issue 39): tenants' subscriptions (URL, events, optional cluster, the signing secret sealed with
 * AES-256-GCM, never in clear) and each event's delivery to each subscription with its attempt log.
 */
export class Webhooks1795860231618 implements MigrationInterface {
    name = 'Webhooks1795860231618'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "webhook_subscriptions" ("id" uuid NOT NULL, "tenant_id" uuid NOT NULL, "role" text NOT NULL, "url" text NOT NULL, "events" text array NOT NULL, "cluster_id" uuid, "secret_sealed" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_bf631ae77d39849d599817fb6f4" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_9f7060b145d1cd7b8c718b1b86" ON "webhook_subscriptions" ("tenant_id") `);
        await queryRunner.query(`CREATE TABLE "webhook_deliveries" ("id" uuid NOT NULL, "subscription_id" uuid NOT NULL, "event" text NOT NULL, "event_id" uuid NOT NULL, "body" text NOT NULL, "status" text NOT NULL DEFAULT 'pending', "attempts" integer NOT NULL DEFAULT '0', "status_code" integer, "error" text, "attempt_log" jsonb NOT NULL DEFAULT '[]', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_attempt_at" TIMESTAMP WITH TIME ZONE, "next_attempt_at" TIMESTAMP WITH TIME ZONE, "delivered_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_535dd409947fb6d8fc6dfc0112a" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "ix_webhook_deliveries_subscription" ON "webhook_deliveries" ("subscription_id", "created_at") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."ix_webhook_deliveries_subscription"`);
        await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_9f7060b145d1cd7b8c718b1b86"`);
        await queryRunner.query(`DROP TABLE "webhook_subscriptions"`);
    }

}
