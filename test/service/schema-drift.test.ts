/**
 * Drift checks: the migrations build exactly the schema the entities describe, and the committed OpenAPI
 * document and generated client match what the code produces (regenerate with `npm run openapi`).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/modules/database/data-source';
import { migrate, openApiDocument } from '../../src/ops';

const ROOT = path.resolve(__dirname, '../../..');

describe('schema drift', () => {
  it('the migrations and the entities agree (migration:generate would find nothing)', async () => {
    const server = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
    const name = `fallow_drift_${process.pid}`;
    const admin = new Client({ connectionString: server });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(server);
    url.pathname = `/${name}`;
    try {
      await migrate(url.toString());
      const ds = await new DataSource(dataSourceOptions(url.toString())).initialize();
      const pending = await ds.driver.createSchemaBuilder().log();
      await ds.destroy();
      assert.deepEqual(pending.upQueries.map((q) => q.query), [], 'entities changed without a migration: run npm run migration:generate -- migrations/<Name>');
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    }
  });

  it('openapi/openapi.json is what the code generates', async () => {
    const committed = JSON.parse(readFileSync(path.join(ROOT, 'openapi/openapi.json'), 'utf8'));
    assert.deepEqual(JSON.parse(JSON.stringify(await openApiDocument())), committed, 'openapi/openapi.json is stale: run npm run openapi');
  });

  it('src/client/schema.ts is generated from the committed document', () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'fallow-client-')), 'schema.ts');
    const bin = path.join(ROOT, 'node_modules/.bin/openapi-typescript');
    const r = spawnSync(bin, [path.join(ROOT, 'openapi/openapi.json'), '--default-non-nullable', 'false', '-o', out], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(readFileSync(out, 'utf8'), readFileSync(path.join(ROOT, 'src/client/schema.ts'), 'utf8'), 'src/client/schema.ts is stale: run npm run openapi');
  });
});
