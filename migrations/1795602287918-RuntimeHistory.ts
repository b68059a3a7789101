import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Runtime history (issue 23): what execution events may say of a task (bytes, locality, reduce phases), the
 * per-stage sums the predictors read (stage_history), the predictor a solve asked for and what it filled in,
 * and what a simulation says tasks really take (true seconds, a lognormal spread).
 */

export class RuntimeHistory1795602287918 implements MigrationInterface {
    name = 'RuntimeHistory1795602287918'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "stage_history" ("solve_id" uuid NOT NULL, "job" text NOT NULL, "stage" text NOT NULL, "tenant_id" uuid NOT NULL, "kind" text NOT NULL, "map_class" text, "reduce_class" text, "last_finished_at" TIMESTAMP WITH TIME ZONE NOT NULL, "bytes_in" double precision NOT NULL, "bytes_out" double precision NOT NULL, "runtime_n" integer NOT NULL, "runtime_sum" double precision NOT NULL, "runtime_sum_sq" double precision NOT NULL, "runtime_num" double precision NOT NULL, "runtime_den" double precision NOT NULL, "rate_n" integer NOT NULL, "rate_sum" double precision NOT NULL, "rate_sum_sq" double precision NOT NULL, "rate_num" double precision NOT NULL, "rate_den" double precision NOT NULL, "rate_local_n" integer NOT NULL, "rate_local_sum" double precision NOT NULL, "rate_local_sum_sq" double precision NOT NULL, "rate_local_num" double precision NOT NULL, "rate_local_den" double precision NOT NULL, "rate_remote_n" integer NOT NULL, "rate_remote_sum" double precision NOT NULL, "rate_remote_sum_sq" double precision NOT NULL, "rate_remote_num" double precision NOT NULL, "rate_remote_den" double precision NOT NULL, "shuffle_rate_n" integer NOT NULL, "shuffle_rate_sum" double precision NOT NULL, "shuffle_rate_sum_sq" double precision NOT NULL, "shuffle_rate_num" double precision NOT NULL, "shuffle_rate_den" double precision NOT NULL, "merge_rate_n" integer NOT NULL, "merge_rate_sum" double precision NOT NULL, "merge_rate_sum_sq" double precision NOT NULL, "merge_rate_num" double precision NOT NULL, "merge_rate_den" double precision NOT NULL, "reduce_rate_n" integer NOT NULL, "reduce_rate_sum" double precision NOT NULL, "reduce_rate_sum_sq" double precision NOT NULL, "reduce_rate_num" double precision NOT NULL, "reduce_rate_den" double precision NOT NULL, "first_shuffle_n" integer NOT NULL, "first_shuffle_sum" double precision NOT NULL, "first_shuffle_sum_sq" double precision NOT NULL, "first_shuffle_num" double precision NOT NULL, "first_shuffle_den" double precision NOT NULL, CONSTRAINT "PK_1d7334d87cd37b04c3feca2a2f8" PRIMARY KEY ("solve_id", "job", "stage"))`);
        await queryRunner.query(`CREATE INDEX "ix_stage_history_reduce_class" ON "stage_history" ("tenant_id", "reduce_class", "last_finished_at") `);
        await queryRunner.query(`CREATE INDEX "ix_stage_history_map_class" ON "stage_history" ("tenant_id", "map_class", "last_finished_at") `);
        await queryRunner.query(`CREATE INDEX "ix_stage_history_kind" ON "stage_history" ("tenant_id", "kind", "last_finished_at") `);
        await queryRunner.query(`ALTER TABLE "execution_events" ADD "input_bytes" bigint`);
        await queryRunner.query(`ALTER TABLE "execution_events" ADD "output_bytes" bigint`);
        await queryRunner.query(`ALTER TABLE "execution_events" ADD "locality" text`);
        await queryRunner.query(`ALTER TABLE "execution_events" ADD "shuffle_end_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "execution_events" ADD "merge_end_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "simulations" ADD "true_seconds" jsonb`);
        await queryRunner.query(`ALTER TABLE "simulations" ADD "runtime_sigma" double precision NOT NULL DEFAULT '0'`);
        await queryRunner.query(`ALTER TABLE "solves" ADD "predictor" text NOT NULL DEFAULT 'auto'`);
        await queryRunner.query(`ALTER TABLE "solves" ADD "predictions" jsonb`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "solves" DROP COLUMN "predictions"`);
        await queryRunner.query(`ALTER TABLE "solves" DROP COLUMN "predictor"`);
        await queryRunner.query(`ALTER TABLE "simulations" DROP COLUMN "runtime_sigma"`);
        await queryRunner.query(`ALTER TABLE "simulations" DROP COLUMN "true_seconds"`);
        await queryRunner.query(`ALTER TABLE "execution_events" DROP COLUMN "merge_end_at"`);
        await queryRunner.query(`ALTER TABLE "execution_events" DROP COLUMN "shuffle_end_at"`);
        await queryRunner.query(`ALTER TABLE "execution_events" DROP COLUMN "locality"`);
        await queryRunner.query(`ALTER TABLE "execution_events" DROP COLUMN "output_bytes"`);
        await queryRunner.query(`ALTER TABLE "execution_events" DROP COLUMN "input_bytes"`);
        await queryRunner.query(`DROP INDEX "public"."ix_stage_history_kind"`);
        await queryRunner.query(`DROP INDEX "public"."ix_stage_history_map_class"`);
        await queryRunner.query(`DROP INDEX "public"."ix_stage_history_reduce_class"`);
        await queryRunner.query(`DROP TABLE "stage_history"`);
    }

}
