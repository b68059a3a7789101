import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * One cluster, many customers (issue 37): plans have a life (proposed, committed, released, completed) and
 * the window they were made for; committed plans' tasks hold their capacity in plan_holds.
 */
export class Commitments1795833248244 implements MigrationInterface {
    name = 'Commitments1795833248244'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "plan_holds" ("plan_id" uuid NOT NULL, "seq" integer NOT NULL, "cluster_id" uuid NOT NULL, "tenant_id" uuid NOT NULL, "job" text NOT NULL, "node" text NOT NULL, "from_at" TIMESTAMP WITH TIME ZONE NOT NULL, "to_at" TIMESTAMP WITH TIME ZONE NOT NULL, "demand" jsonb NOT NULL, CONSTRAINT "PK_47d456ac9e0c4789947c887a93e" PRIMARY KEY ("plan_id", "seq"))`);
        await queryRunner.query(`CREATE INDEX "ix_plan_holds_cluster_to" ON "plan_holds" ("cluster_id", "to_at") `);
        await queryRunner.query(`ALTER TABLE "plans" ADD "status" text NOT NULL DEFAULT 'proposed'`);
        await queryRunner.query(`ALTER TABLE "plans" ADD "cluster_id" uuid`);
        await queryRunner.query(`ALTER TABLE "plans" ADD "window_starts_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "plans" ADD "slot_seconds" double precision`);
        await queryRunner.query(`ALTER TABLE "plans" ADD "slots" integer`);
        await queryRunner.query(`ALTER TABLE "plans" ADD "ends_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "plans" ADD "committed_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "plans" ADD "released_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "plans" ADD "completed_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "solves" ADD "window_starts_at" TIMESTAMP WITH TIME ZONE`);
        // Plans stored before: their window is their solve's; every one was billed as if it ran, so each
        // stays counted: committed (holding its capacity from now on) or, once its last task has ended, completed.
        await queryRunner.query(`UPDATE "plans" p SET "cluster_id" = s."cluster_id", "window_starts_at" = s."starts_at",
            "slot_seconds" = (s."instance"->'horizon'->>'slotSeconds')::float8, "slots" = (s."instance"->'horizon'->>'slots')::int,
            "ends_at" = s."starts_at" + p."makespan_slots" * (s."instance"->'horizon'->>'slotSeconds')::float8 * interval '1 second'
            FROM "solves" s WHERE s."id" = p."solve_id"`);
        await queryRunner.query(`UPDATE "plans" SET "status" = CASE WHEN "ends_at" <= now() THEN 'completed' ELSE 'committed' END,
            "committed_at" = "created_at", "completed_at" = CASE WHEN "ends_at" <= now() THEN "ends_at" END`);
        await queryRunner.query(`INSERT INTO "plan_holds" ("plan_id", "seq", "cluster_id", "tenant_id", "job", "node", "from_at", "to_at", "demand")
            SELECT a."plan_id", a."seq", p."cluster_id", p."tenant_id", a."job", a."node",
                   p."window_starts_at" + a."start" * p."slot_seconds" * interval '1 second', p."window_starts_at" + a."end_slot" * p."slot_seconds" * interval '1 second',
                   COALESCE(st->'demand', '{}'::jsonb)
            FROM "plans" p JOIN "plan_assignments" a ON a."plan_id" = p."id" JOIN "solves" s ON s."id" = p."solve_id"
            CROSS JOIN LATERAL jsonb_array_elements(s."instance"->'jobs') j CROSS JOIN LATERAL jsonb_array_elements(j->'stages') st
            WHERE p."status" = 'committed' AND p."cluster_id" IS NOT NULL AND j->>'id' = a."job" AND st->>'id' = a."stage"`);
        for (const c of ['window_starts_at', 'slot_seconds', 'slots', 'ends_at']) await queryRunner.query(`ALTER TABLE "plans" ALTER COLUMN "${c}" SET NOT NULL`);
        await queryRunner.query(`CREATE INDEX "ix_plans_cluster_status" ON "plans" ("cluster_id", "status") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."ix_plans_cluster_status"`);
        await queryRunner.query(`ALTER TABLE "solves" DROP COLUMN "window_starts_at"`);
        await queryRunner.query(`ALTER TABLE "plans" DROP COLUMN "completed_at"`);
        await queryRunner.query(`ALTER TABLE "plans" DROP COLUMN "released_at"`);
        await queryRunner.query(`ALTER TABLE "plans" DROP COLUMN "committed_at"`);
        await queryRunner.query(`ALTER TABLE "plans" DROP COLUMN "ends_at"`);
        await queryRunner.query(`ALTER TABLE "plans" DROP COLUMN "slots"`);
        await queryRunner.query(`ALTER TABLE "plans" DROP COLUMN "slot_seconds"`);
        await queryRunner.query(`ALTER TABLE "plans" DROP COLUMN "window_starts_at"`);
        await queryRunner.query(`ALTER TABLE "plans" DROP COLUMN "cluster_id"`);
        await queryRunner.query(`ALTER TABLE "plans" DROP COLUMN "status"`);
        await queryRunner.query(`DROP INDEX "public"."ix_plan_holds_cluster_to"`);
        await queryRunner.query(`DROP TABLE "plan_holds"`);
    }

}
