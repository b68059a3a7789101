import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Whether a solve's plan prices transfers (issue 38: priced by default, `transfers: "ignored"` plans compute alone).
 * Solves stored before asked for nothing, which is the default; their plans' stats.transfers say what was done.
 */
export class SolveTransfers1795845046442 implements MigrationInterface {
    name = 'SolveTransfers1795845046442'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "solves" ADD "transfers" text NOT NULL DEFAULT 'priced'`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "solves" DROP COLUMN "transfers"`);
    }

}
