/**
 * Drift checks: the migrations build exactly the schema the entities describe, and the committed OpenAPI
 * document and generated client match what the code produces (regenerate with `npm run openapi`).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/modules/database/data-source';
import { migrate, openApiDocument } from '../../src/ops/main';
import { withScratchDatabase } from '../support/scratch-database';

const ROOT = path.resolve(__dirname, '../../..');

describe('schema drift', () => {
  it('the migrations and the entities agree (migration:generate would find nothing)', async () => {
    await withScratchDatabase('fallow_drift', async (url) => {
      await migrate(url);
      const ds = await new DataSource(dataSourceOptions(url)).initialize();
      const pending = await ds.driver.createSchemaBuilder().log();
      await ds.destroy();
      assert.deepEqual(pending.upQueries.map((q) => q.query), [], 'entities changed without a migration: run npm run migration:generate -- migrations/<Name>');
    });
  });

  it('openapi/openapi.json is what the code generates', async () => {
    const committed = JSON.parse(readFileSync(path.join(ROOT, 'openapi/openapi.json'), 'utf8'));
    assert.deepEqual(JSON.parse(JSON.stringify(await openApiDocument())), committed, 'openapi/openapi.json is stale: run npm run openapi');
  });

  it('src/client/schema.ts is generated from the committed document', () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'fallow-client-')), 'schema.ts');
    const bin = path.join(ROOT, 'node_modules/.bin/openapi-typescript');
    const r = spawnSync(bin, [path.join(ROOT, 'openapi/openapi.json'), '-o', out], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(readFileSync(out, 'utf8'), readFileSync(path.join(ROOT, 'src/client/schema.ts'), 'utf8'), 'src/client/schema.ts is stale: run npm run openapi');
  });

  it('the README\'s client snippet compiles against a client generated with default options (defaulted fields optional, no JWT claim)', () => {
    const doc = JSON.parse(readFileSync(path.join(ROOT, 'openapi/openapi.json'), 'utf8'));
    assert.deepEqual(Object.values(doc.components.securitySchemes).filter((x) => (x as { bearerFormat?: string }).bearerFormat), [], 'API keys are opaque: no bearerFormat (Nest says JWT)');
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const snippet = /## A typed client[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    assert.ok(snippet, 'README.md has a ```ts block under "## A typed client"');
    // Inside the repository so that openapi-fetch resolves from its node_modules.
    mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
    const dir = mkdtempSync(path.join(ROOT, '.tmp', 'client-snippet-'));
    try {
      const gen = spawnSync(path.join(ROOT, 'node_modules/.bin/openapi-typescript'), [path.join(ROOT, 'openapi/openapi.json'), '-o', path.join(dir, 'fallow.ts')], { encoding: 'utf8' });
      assert.equal(gen.status, 0, gen.stderr);
      writeFileSync(path.join(dir, 'snippet.ts'), snippet);
      const tsc = spawnSync(
        path.join(ROOT, 'node_modules/.bin/tsc'),
        ['--noEmit', '--strict', '--module', 'commonjs', '--moduleResolution', 'node', '--esModuleInterop', '--skipLibCheck', '--target', 'es2022', '--types', 'node', path.join(dir, 'snippet.ts')],
        { encoding: 'utf8', cwd: ROOT },
      );
      assert.equal(tsc.status, 0, `the README's snippet does not compile:\n${tsc.stdout}${tsc.stderr}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
