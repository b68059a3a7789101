import { MigrationInterface, QueryRunner } from 'typeorm';

/** A cluster version may say its racks' bandwidths (instance `network`), so solves and simulations by reference carry it. */
export class ClusterNetwork1795400000003 implements MigrationInterface {
  name = 'ClusterNetwork1795400000003';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "cluster_versions" ADD "network" jsonb`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "cluster_versions" DROP COLUMN "network"`);
  }
}
