import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Re-planning (issue 39): a solve of kind `replan` re-plans a running plan and records how (`replan`); its plan
 * supersedes the plan re-planned (`supersedes`, `superseded_by`, `version`), both kept. Rows stored before are
 * solves of version-1 plans.
 */
export class Replans1795859619384 implements MigrationInterface {
    name = 'Replans1795859619384'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "plans" ADD "supersedes" uuid`);
        await queryRunner.query(`ALTER TABLE "plans" ADD "superseded_by" uuid`);
        await queryRunner.query(`ALTER TABLE "plans" ADD "version" integer NOT NULL DEFAULT '1'`);
        await queryRunner.query(`ALTER TABLE "solves" ADD "kind" text NOT NULL DEFAULT 'solve'`);
        await queryRunner.query(`ALTER TABLE "solves" ADD "replan" jsonb`);
        await queryRunner.query(`CREATE INDEX "ix_plans_supersedes" ON "plans" ("supersedes") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."ix_plans_supersedes"`);
        await queryRunner.query(`ALTER TABLE "solves" DROP COLUMN "replan"`);
        await queryRunner.query(`ALTER TABLE "solves" DROP COLUMN "kind"`);
        await queryRunner.query(`ALTER TABLE "plans" DROP COLUMN "version"`);
        await queryRunner.query(`ALTER TABLE "plans" DROP COLUMN "superseded_by"`);
        await queryRunner.query(`ALTER TABLE "plans" DROP COLUMN "supersedes"`);
    }

}
