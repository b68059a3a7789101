import { MigrationInterface, QueryRunner } from "typeorm";

/** Per-customer quotas on clusters and borrowing (issue 37, point 4): plans and their holds say when they went beyond their quota. */
export class Quotas1795833704719 implements MigrationInterface {
    name = 'Quotas1795833704719'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "cluster_quotas" ("cluster_id" uuid NOT NULL, "customer" text NOT NULL, "shares" jsonb NOT NULL, "borrow" boolean NOT NULL DEFAULT false, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_938f4178960cfbb76fe94335dba" PRIMARY KEY ("cluster_id", "customer"))`);
        await queryRunner.query(`ALTER TABLE "plan_holds" ADD "borrowing" boolean NOT NULL DEFAULT false`);
        await queryRunner.query(`ALTER TABLE "plans" ADD "borrowing" boolean NOT NULL DEFAULT false`);
        await queryRunner.query(`ALTER TABLE "plans" ADD "release_reason" text`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "plans" DROP COLUMN "release_reason"`);
        await queryRunner.query(`ALTER TABLE "plans" DROP COLUMN "borrowing"`);
        await queryRunner.query(`ALTER TABLE "plan_holds" DROP COLUMN "borrowing"`);
        await queryRunner.query(`DROP TABLE "cluster_quotas"`);
    }

}
