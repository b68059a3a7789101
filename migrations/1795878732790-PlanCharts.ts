import { MigrationInterface, QueryRunner } from "typeorm";

/** Issue 40: a large plan's charts rendered by the worker when it stores the plan, served by the API on their first request. */
export class PlanCharts1795878732790 implements MigrationInterface {
    name = 'PlanCharts1795878732790'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "plan_charts" ("plan_id" uuid NOT NULL, "chart" text NOT NULL, "format" text NOT NULL, "params" text NOT NULL, "revision" text NOT NULL, "body" text NOT NULL, "render_ms" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_1e1b7712e1df4990ff92ff5862c" PRIMARY KEY ("plan_id", "chart", "format", "params", "revision"))`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TABLE "plan_charts"`);
    }

}
