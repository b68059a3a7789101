import { MigrationInterface, QueryRunner } from "typeorm";

export class BuildHeadroom1795340000000 implements MigrationInterface {
    name = 'BuildHeadroom1795340000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "forecast_builds" ADD "headroom" double precision NOT NULL DEFAULT '0'`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "forecast_builds" DROP COLUMN "headroom"`);
    }

}
