import { MigrationInterface, QueryRunner } from "typeorm";

/** A forecast's slot 0 has a wall-clock time (issue 26); a solve may carry warnings (a stale forecast it allowed). */
export class ForecastStartsAt1795611518963 implements MigrationInterface {
    name = 'ForecastStartsAt1795611518963'

    public async up(queryRunner: QueryRunner): Promise<void> {
        // Forecasts stored before this knew no start: their creation is the best guess (what a posted one defaults to).
        await queryRunner.query(`ALTER TABLE "forecasts" ADD "starts_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`UPDATE "forecasts" SET "starts_at" = "created_at"`);
        await queryRunner.query(`ALTER TABLE "forecasts" ALTER COLUMN "starts_at" SET NOT NULL`);
        await queryRunner.query(`ALTER TABLE "solves" ADD "warnings" jsonb`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "solves" DROP COLUMN "warnings"`);
        await queryRunner.query(`ALTER TABLE "forecasts" DROP COLUMN "starts_at"`);
    }

}
