import { MigrationInterface, QueryRunner } from "typeorm";

/** POSUM's alpha, beta, gamma: a tenant's default (set by the operator) and what a portfolio solve was weighed with (issue 24). */
export class ScoreWeights1795619089361 implements MigrationInterface {
    name = 'ScoreWeights1795619089361'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "tenants" ADD "score_weights" jsonb`);
        await queryRunner.query(`ALTER TABLE "solves" ADD "score_weights" jsonb`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "solves" DROP COLUMN "score_weights"`);
        await queryRunner.query(`ALTER TABLE "tenants" DROP COLUMN "score_weights"`);
    }

}
