import { MigrationInterface, QueryRunner } from 'typeorm';

/** A simulation may start reduces early (Hadoop's slow start); existing ones kept the strict barrier (1). */
export class SimulationSlowstart1795400000004 implements MigrationInterface {
  name = 'SimulationSlowstart1795400000004';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "simulations" ADD "reduce_slowstart" double precision NOT NULL DEFAULT 1`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "simulations" DROP COLUMN "reduce_slowstart"`);
  }
}
