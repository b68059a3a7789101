import { MigrationInterface, QueryRunner } from "typeorm";

export class Usage1795328250699 implements MigrationInterface {
    name = 'Usage1795328250699'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "forecast_builds" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "cluster_id" uuid NOT NULL, "cluster_version" integer NOT NULL, "status" text NOT NULL, "model" text NOT NULL, "quantile" double precision NOT NULL, "slot_seconds" double precision NOT NULL, "horizon_slots" integer NOT NULL, "training_days" integer NOT NULL, "forecast_id" uuid, "error" text, "attempts" integer NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "started_at" TIMESTAMP WITH TIME ZONE, "finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_d99dd2272a584e57dd233857c6a" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_31a65dbdf0ec33cbb3a2f8227b" ON "forecast_builds" ("tenant_id") `);
        await queryRunner.query(`CREATE INDEX "IDX_20e35f8eb80f5e6af4afb16f4d" ON "forecast_builds" ("cluster_id") `);
        await queryRunner.query(`CREATE TABLE "usage_series" ("id" SERIAL NOT NULL, "cluster_id" uuid NOT NULL, "node" text NOT NULL, "metric" text NOT NULL, CONSTRAINT "uq_usage_series_cluster_node_metric" UNIQUE ("cluster_id", "node", "metric"), CONSTRAINT "PK_6200f151d05aedc0f4d3833f457" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE TABLE "usage_samples" ("series_id" integer NOT NULL, "ts" TIMESTAMP WITH TIME ZONE NOT NULL, "value" double precision NOT NULL, CONSTRAINT "PK_dacea1ccf2788581a7c4acefb38" PRIMARY KEY ("series_id", "ts"))`);
        await queryRunner.query(`ALTER TABLE "forecasts" ADD "provenance" jsonb`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "forecasts" DROP COLUMN "provenance"`);
        await queryRunner.query(`DROP TABLE "usage_samples"`);
        await queryRunner.query(`DROP TABLE "usage_series"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_20e35f8eb80f5e6af4afb16f4d"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_31a65dbdf0ec33cbb3a2f8227b"`);
        await queryRunner.query(`DROP TABLE "forecast_builds"`);
    }

}
