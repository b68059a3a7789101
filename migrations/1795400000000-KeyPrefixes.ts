import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Clear prefixes are now `flw_` + 4 characters of a generated key and nothing of a chosen one: the first 8
 * characters of a chosen key (the bootstrap key) said too much of it. Digests are upgraded to HMAC on use.
 */
export class KeyPrefixes1795400000000 implements MigrationInterface {
  name = 'KeyPrefixes1795400000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE "api_keys" SET "prefix" = '' WHERE "prefix" NOT LIKE 'flw\\_%'`);
  }

  public async down(): Promise<void> {
    // The erased characters cannot be brought back; nothing to undo.
  }
}
