import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The QoS controller's period (issue 25). Simulations stored before it were checked once per slot, whatever
 * the slot: they keep NULL (the API says so) rather than the new default of 100 ms, which they never ran with.
 */
export class QosPeriod1795622426703 implements MigrationInterface {
    name = 'QosPeriod1795622426703'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "simulations" ADD "qos_period_seconds" double precision`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "simulations" DROP COLUMN "qos_period_seconds"`);
    }

}
