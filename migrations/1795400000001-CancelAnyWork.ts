import { MigrationInterface, QueryRunner } from 'typeorm';

/** Forecast builds and simulations can be cancelled too (DELETE): they record when it was asked, as solves do. */
export class CancelAnyWork1795400000001 implements MigrationInterface {
  name = 'CancelAnyWork1795400000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "forecast_builds" ADD "cancel_requested_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "simulations" ADD "cancel_requested_at" TIMESTAMP WITH TIME ZONE`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "simulations" DROP COLUMN "cancel_requested_at"`);
    await queryRunner.query(`ALTER TABLE "forecast_builds" DROP COLUMN "cancel_requested_at"`);
  }
}
