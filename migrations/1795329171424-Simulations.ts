import { MigrationInterface, QueryRunner } from "typeorm";

export class Simulations1795329171424 implements MigrationInterface {
    name = 'Simulations1795329171424'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "simulations" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "plan_id" uuid NOT NULL, "status" text NOT NULL, "qos" text NOT NULL, "seed" integer NOT NULL, "actual_source" text NOT NULL, "actual_forecast_id" uuid, "actual_usage" jsonb, "report" jsonb, "error" text, "attempts" integer NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "started_at" TIMESTAMP WITH TIME ZONE, "finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_c6d15083257a1c84ecd67423c30" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_c4e58bcac62308ddc38e7d450b" ON "simulations" ("tenant_id") `);
        await queryRunner.query(`CREATE INDEX "ix_simulations_plan_created" ON "simulations" ("plan_id", "created_at") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."ix_simulations_plan_created"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_c4e58bcac62308ddc38e7d450b"`);
        await queryRunner.query(`DROP TABLE "simulations"`);
    }

}
