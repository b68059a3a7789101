import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Runs by reference that name no forecast use the cluster's newest covering their start (issue 34): solves and
 * policy simulations say how they came to their forecast; policy simulations also keep their forecast, start
 * and warnings. Solves stored before named their forecast or had none.
 */
export class ForecastChoice1795810904402 implements MigrationInterface {
    name = 'ForecastChoice1795810904402'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "simulations" ADD "forecast_id" uuid`);
        await queryRunner.query(`ALTER TABLE "simulations" ADD "forecast_choice" text`);
        await queryRunner.query(`ALTER TABLE "simulations" ADD "starts_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "simulations" ADD "warnings" jsonb`);
        await queryRunner.query(`ALTER TABLE "solves" ADD "forecast_choice" text`);
        await queryRunner.query(`UPDATE "solves" SET "forecast_choice" = CASE WHEN "forecast_id" IS NULL THEN 'none' ELSE 'request' END`);
        await queryRunner.query(`ALTER TABLE "solves" ALTER COLUMN "forecast_choice" SET NOT NULL`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "solves" DROP COLUMN "forecast_choice"`);
        await queryRunner.query(`ALTER TABLE "simulations" DROP COLUMN "warnings"`);
        await queryRunner.query(`ALTER TABLE "simulations" DROP COLUMN "starts_at"`);
        await queryRunner.query(`ALTER TABLE "simulations" DROP COLUMN "forecast_choice"`);
        await queryRunner.query(`ALTER TABLE "simulations" DROP COLUMN "forecast_id"`);
    }

}
