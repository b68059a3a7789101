import { MigrationInterface, QueryRunner } from "typeorm";

export class Revenue1795326169496 implements MigrationInterface {
    name = 'Revenue1795326169496'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "execution_events" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "event_id" text NOT NULL, "solve_id" uuid NOT NULL, "job" text NOT NULL, "stage" text NOT NULL, "task" integer NOT NULL, "node" text NOT NULL, "type" text NOT NULL, "at" TIMESTAMP WITH TIME ZONE NOT NULL, "reason" text, "received_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "uq_execution_events_tenant_event" UNIQUE ("tenant_id", "event_id"), CONSTRAINT "PK_7696142eac15159f499be26321d" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "ix_execution_events_solve" ON "execution_events" ("solve_id", "job") `);
        await queryRunner.query(`ALTER TABLE "tenants" ADD "revenue_share_bps" integer NOT NULL DEFAULT '0'`);
        await queryRunner.query(`ALTER TABLE "solves" ADD "objective" text NOT NULL DEFAULT 'tasks-then-makespan'`);
        // Existing solves start when they were created (the default of new ones), so the column can be NOT NULL.
        await queryRunner.query(`ALTER TABLE "solves" ADD "starts_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`UPDATE "solves" SET "starts_at" = "created_at"`);
        await queryRunner.query(`ALTER TABLE "solves" ALTER COLUMN "starts_at" SET NOT NULL`);
        await queryRunner.query(`CREATE INDEX "ix_solves_cluster" ON "solves" ("cluster_id") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."ix_solves_cluster"`);
        await queryRunner.query(`ALTER TABLE "solves" DROP COLUMN "starts_at"`);
        await queryRunner.query(`ALTER TABLE "solves" DROP COLUMN "objective"`);
        await queryRunner.query(`ALTER TABLE "tenants" DROP COLUMN "revenue_share_bps"`);
        await queryRunner.query(`DROP INDEX "public"."ix_execution_events_solve"`);
        await queryRunner.query(`DROP TABLE "execution_events"`);
    }

}
