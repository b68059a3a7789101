import { MigrationInterface, QueryRunner } from "typeorm";

/** Nodes lost and back (issue 39): the events a farmer reports; solves on the cluster see a lost node as unavailable. */
export class ClusterEvents1795859976145 implements MigrationInterface {
    name = 'ClusterEvents1795859976145'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "cluster_events" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "cluster_id" uuid NOT NULL, "tenant_id" uuid NOT NULL, "type" text NOT NULL, "node" text NOT NULL, "at" TIMESTAMP WITH TIME ZONE NOT NULL, "until" TIMESTAMP WITH TIME ZONE, "reason" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_96d2bdd6f3b598eb3b317699f14" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "ix_cluster_events_cluster_created" ON "cluster_events" ("cluster_id", "created_at") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."ix_cluster_events_cluster_created"`);
        await queryRunner.query(`DROP TABLE "cluster_events"`);
    }

}
