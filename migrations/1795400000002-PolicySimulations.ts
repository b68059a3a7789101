import { MigrationInterface, QueryRunner } from 'typeorm';

/** A simulation may run an online policy on an instance instead of replaying a plan: no plan, a policy, the instance it ran on. */
export class PolicySimulations1795400000002 implements MigrationInterface {
  name = 'PolicySimulations1795400000002';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "simulations" ALTER COLUMN "plan_id" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "simulations" ADD "policy" text`);
    await queryRunner.query(`ALTER TABLE "simulations" ADD "instance" jsonb`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "simulations" WHERE "plan_id" IS NULL`);
    await queryRunner.query(`ALTER TABLE "simulations" DROP COLUMN "instance"`);
    await queryRunner.query(`ALTER TABLE "simulations" DROP COLUMN "policy"`);
    await queryRunner.query(`ALTER TABLE "simulations" ALTER COLUMN "plan_id" SET NOT NULL`);
  }
}
