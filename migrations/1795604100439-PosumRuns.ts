import { MigrationInterface, QueryRunner } from "typeorm";

/** POSUM over HTTP (issue 24): a policy simulation may lease nodes with a provisioning policy and carries POSUM's parameters. */

export class PosumRuns1795604100439 implements MigrationInterface {
    name = 'PosumRuns1795604100439'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "simulations" ADD "provision" text`);
        await queryRunner.query(`ALTER TABLE "simulations" ADD "posum" jsonb`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "simulations" DROP COLUMN "posum"`);
        await queryRunner.query(`ALTER TABLE "simulations" DROP COLUMN "provision"`);
    }

}
