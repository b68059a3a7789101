import { MigrationInterface, QueryRunner } from "typeorm";

/** Shuffle-aware reduce placement on a solve (issue 25's follow-up); solves stored before it did not use it. */
export class ShuffleAware1795631495054 implements MigrationInterface {
    name = 'ShuffleAware1795631495054'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "solves" ADD "shuffle_aware" boolean NOT NULL DEFAULT false`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "solves" DROP COLUMN "shuffle_aware"`);
    }

}
