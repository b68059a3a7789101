import { MigrationInterface, QueryRunner } from "typeorm";

/** Automatic re-planning (issue 39): the settings per cluster, the re-plans requested, and the per-plan debounce gate. */
export class Replanning1795861070318 implements MigrationInterface {
    name = 'Replanning1795861070318'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "cluster_replanning" ("cluster_id" uuid NOT NULL, "enabled" boolean NOT NULL, "triggers" jsonb NOT NULL, "forecast_miss_threshold" double precision NOT NULL, "forecast_miss_window_seconds" integer NOT NULL, "min_interval_seconds" integer NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_5a75cde4f4630fab9b8fca6bb58" PRIMARY KEY ("cluster_id"))`);
        await queryRunner.query(`CREATE TABLE "auto_replans" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "cluster_id" uuid NOT NULL, "plan_id" uuid NOT NULL, "trigger" text NOT NULL, "reason" text NOT NULL, "detail" jsonb NOT NULL, "status" text NOT NULL DEFAULT 'requested', "solve_id" uuid, "error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_dfa2ff1f157e7cf8c9764a0ffe0" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "ix_auto_replans_cluster_created" ON "auto_replans" ("cluster_id", "created_at") `);
        await queryRunner.query(`CREATE TABLE "auto_replan_gates" ("plan_id" uuid NOT NULL, "last_requested_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_e6505513caeb2487d3afd24bc05" PRIMARY KEY ("plan_id"))`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TABLE "auto_replan_gates"`);
        await queryRunner.query(`DROP INDEX "public"."ix_auto_replans_cluster_created"`);
        await queryRunner.query(`DROP TABLE "auto_replans"`);
        await queryRunner.query(`DROP TABLE "cluster_replanning"`);
    }

}
