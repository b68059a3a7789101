import { MigrationInterface, QueryRunner } from "typeorm";

/** A simulation may say what tasks really take (true seconds per stage, a lognormal spread): plans built on predicted durations replayed against the truth. */

export class RuntimeTruth1795601945066 implements MigrationInterface {
    name = 'RuntimeTruth1795601945066'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "simulations" ADD "true_seconds" jsonb`);
        await queryRunner.query(`ALTER TABLE "simulations" ADD "runtime_sigma" double precision NOT NULL DEFAULT '0'`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "simulations" DROP COLUMN "runtime_sigma"`);
        await queryRunner.query(`ALTER TABLE "simulations" DROP COLUMN "true_seconds"`);
    }

}
