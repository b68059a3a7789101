import { MigrationInterface, QueryRunner } from "typeorm";

export class Init1795320246289 implements MigrationInterface {
    name = 'Init1795320246289'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "api_keys" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "role" text NOT NULL, "label" text NOT NULL DEFAULT '', "prefix" text NOT NULL, "key_hash" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_5c8a79801b44bd27b79228e1dad" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_3ac18429c8d27858d79432e0dd" ON "api_keys" ("tenant_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "IDX_57384430aa1959f4578046c9b8" ON "api_keys" ("key_hash") `);
        await queryRunner.query(`CREATE TABLE "tenants" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "name" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_32731f181236a46182a38c992a8" UNIQUE ("name"), CONSTRAINT "PK_53be67a04681c66b87ee27c9321" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE TABLE "batches" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "name" text NOT NULL, "jobs" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_55e7ff646e969b61d37eea5be7a" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_a31c93f696dc66dc9a851673cd" ON "batches" ("tenant_id") `);
        await queryRunner.query(`CREATE TABLE "clusters" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "name" text NOT NULL, "lendable" boolean NOT NULL DEFAULT true, "version" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_56c8e201f375e1e961dcdd6831c" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_d181b74c9f52017ad63d334376" ON "clusters" ("tenant_id") `);
        await queryRunner.query(`CREATE TABLE "cluster_versions" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "cluster_id" uuid NOT NULL, "version" integer NOT NULL, "metrics" jsonb NOT NULL, "nodes" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "uq_cluster_versions_cluster_version" UNIQUE ("cluster_id", "version"), CONSTRAINT "PK_fc30b208a27c69e728f0ab17e1c" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE TABLE "idempotency_keys" ("key_id" uuid NOT NULL, "key" text NOT NULL, "request_hash" text NOT NULL, "status_code" integer NOT NULL, "body" jsonb NOT NULL, "location" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_2c492b7ab5781e85cf7e0170a20" PRIMARY KEY ("key_id", "key"))`);
        await queryRunner.query(`CREATE TABLE "forecasts" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "cluster_id" uuid NOT NULL, "cluster_version" integer NOT NULL, "slot_seconds" double precision NOT NULL, "slots" integer NOT NULL, "quantile" double precision NOT NULL, "usage" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_caa4d5aec48032eb9d2ce8535f8" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_98b928c1e94ad804a4678ca7cf" ON "forecasts" ("tenant_id") `);
        await queryRunner.query(`CREATE INDEX "IDX_f207d154a5158bc6debf5c0891" ON "forecasts" ("cluster_id") `);
        await queryRunner.query(`CREATE TABLE "plans" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "solve_id" uuid NOT NULL, "strategy" text NOT NULL, "scheduled_tasks" integer NOT NULL, "makespan_slots" integer NOT NULL, "optimal" boolean NOT NULL, "document" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_3720521a81c7c24fe9b7202ba61" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_f17ddc6d7cd26981b7ac8bf902" ON "plans" ("tenant_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "IDX_e71d91c8aa39cdb76404852e24" ON "plans" ("solve_id") `);
        await queryRunner.query(`CREATE TABLE "plan_assignments" ("plan_id" uuid NOT NULL, "seq" integer NOT NULL, "job" text NOT NULL, "stage" text NOT NULL, "task" integer NOT NULL, "node" text NOT NULL, "start" integer NOT NULL, "end_slot" integer NOT NULL, CONSTRAINT "PK_56381bc7b6b6994abcb75bf166a" PRIMARY KEY ("plan_id", "seq"))`);
        await queryRunner.query(`CREATE INDEX "ix_plan_assignments_job" ON "plan_assignments" ("plan_id", "job") `);
        await queryRunner.query(`CREATE INDEX "ix_plan_assignments_node" ON "plan_assignments" ("plan_id", "node") `);
        await queryRunner.query(`CREATE TABLE "solves" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "status" text NOT NULL, "strategy" text NOT NULL, "time_budget_ms" integer NOT NULL, "seed" integer NOT NULL, "cluster_id" uuid, "cluster_version" integer, "forecast_id" uuid, "batch_id" uuid, "instance" jsonb NOT NULL, "instance_name" text NOT NULL, "progress" jsonb, "error" text, "plan_id" uuid, "attempts" integer NOT NULL DEFAULT '0', "cancel_requested_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "started_at" TIMESTAMP WITH TIME ZONE, "finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_4cca24c1dd43b91cb056e717bc7" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_01b2e0572a97ddb542b2544e93" ON "solves" ("tenant_id") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."IDX_01b2e0572a97ddb542b2544e93"`);
        await queryRunner.query(`DROP TABLE "solves"`);
        await queryRunner.query(`DROP INDEX "public"."ix_plan_assignments_node"`);
        await queryRunner.query(`DROP INDEX "public"."ix_plan_assignments_job"`);
        await queryRunner.query(`DROP TABLE "plan_assignments"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_e71d91c8aa39cdb76404852e24"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_f17ddc6d7cd26981b7ac8bf902"`);
        await queryRunner.query(`DROP TABLE "plans"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_f207d154a5158bc6debf5c0891"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_98b928c1e94ad804a4678ca7cf"`);
        await queryRunner.query(`DROP TABLE "forecasts"`);
        await queryRunner.query(`DROP TABLE "idempotency_keys"`);
        await queryRunner.query(`DROP TABLE "cluster_versions"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_d181b74c9f52017ad63d334376"`);
        await queryRunner.query(`DROP TABLE "clusters"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_a31c93f696dc66dc9a851673cd"`);
        await queryRunner.query(`DROP TABLE "batches"`);
        await queryRunner.query(`DROP TABLE "tenants"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_57384430aa1959f4578046c9b8"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_3ac18429c8d27858d79432e0dd"`);
        await queryRunner.query(`DROP TABLE "api_keys"`);
    }

}
