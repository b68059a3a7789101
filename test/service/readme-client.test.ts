/**
 * The README's typed-client snippet ("## A typed client") run for real: its solve(clusterId, batchId) against
 * the API and a worker, on a cluster with a forecast covering now (posted without startsAt, as a farmer does)
 * and a batch, must return a plan; the snippet names no forecast, so the solve takes the one covering now.
 * The snippet is read from README.md at test time (schema-drift.test.ts compiles it against a generated
 * client); only its baseUrl is pointed at this test's API. The plan's assignments then answer a filter on a
 * node or job the plan does not have with a 422 naming it, and an idle node with an empty page.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import ts from 'typescript';
import { problem } from '../support/problem';
import { Service, startService } from '../../harness/service';

const ROOT = path.resolve(__dirname, '../../..');
const README_BASE_URL = "'http://localhost:3000'";

/** The snippet as CommonJS with its baseUrl replaced; its type-only import of ./fallow is erased. */
function readmeSnippet(baseUrl: string): string {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const snippet = /## A typed client[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(snippet, 'README.md has a ```ts block under "## A typed client"');
  assert.equal(snippet.split(README_BASE_URL).length, 2, `the snippet names its API once as ${README_BASE_URL}`);
  const source = snippet.replace(README_BASE_URL, JSON.stringify(baseUrl));
  return ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true } }).outputText;
}

describe("the README's typed client", () => {
  let svc: Service;
  let dir: string;
  before(async () => {
    svc = await startService();
    // Inside the repository so that openapi-fetch resolves from its node_modules.
    mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
    dir = mkdtempSync(path.join(ROOT, '.tmp', 'readme-client-'));
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await svc?.close();
  });

  it("solve(clusterId, batchId) returns a plan made on the forecast covering now; the plan's assignments refuse unknown names", async () => {
    svc.startWorker();
    const farm = await svc.tenant('readme-farm', ['farmer']);
    const shop = await svc.tenant('readme-shop', ['customer']);
    const farmer = svc.client(farm.keys.farmer);
    const cluster = await farmer.POST('/v1/clusters', {
      body: { name: 'readme', metrics: ['cpu'], lendable: true, nodes: [{ id: 'h01', capacity: { cpu: 8 } }, { id: 'tiny', capacity: { cpu: 0.5 } }] },
    });
    assert.ok(cluster.data, JSON.stringify(cluster.error));
    const clusterId = cluster.data.id;
    const forecast = await farmer.POST('/v1/clusters/{clusterId}/forecasts', {
      params: { path: { clusterId } },
      body: { slotSeconds: 300, slots: 24, usage: { h01: { cpu: Array(24).fill(0.25) } } },
    });
    assert.ok(forecast.data, JSON.stringify(forecast.error));
    const offered = await svc.client(shop.keys.customer).GET('/v1/offered-clusters');
    assert.equal(offered.data!.items.find((c) => c.id === clusterId)?.forecast?.id, forecast.data.id, 'offered with the forecast covering now');
    const batch = await svc.client(shop.keys.customer).POST('/v1/batches', {
      body: { name: 'readme', jobs: [{ id: 'j1', stages: [{ id: 'map', tasks: 4, demand: { cpu: 1 }, durationSeconds: 600 }] }] },
    });
    assert.ok(batch.data, JSON.stringify(batch.error));

    const file = path.join(dir, 'snippet.js');
    writeFileSync(file, readmeSnippet(svc.baseUrl));
    process.env.CUSTOMER = shop.keys.customer; // the snippet reads its key from CUSTOMER when loaded
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { solve } = require(file) as { solve: (clusterId: string, batchId: string) => Promise<{ id: string; solveId: string; objective: { scheduledTasks: number } } | undefined> };
    const plan = await solve(clusterId, batch.data.id);
    assert.ok(plan, 'solve returned a plan');
    assert.equal(plan.objective.scheduledTasks, 4);
    const solved = await svc.client(shop.keys.customer).GET('/v1/solves/{id}', { params: { path: { id: plan.solveId } } });
    assert.deepEqual([solved.data!.status, solved.data!.forecastId, solved.data!.forecastChoice], ['succeeded', forecast.data.id, 'newest-covering-start']);

    const customer = svc.client(shop.keys.customer);
    const page = (query: { node?: string; job?: string }) => customer.GET('/v1/plans/{id}/assignments', { params: { path: { id: plan.id }, query } });
    const onH01 = await page({ node: 'h01' });
    assert.equal(onH01.response.status, 200, JSON.stringify(onH01.error));
    assert.equal(onH01.data!.items.length, 4);
    const idle = await page({ node: 'tiny' });
    assert.deepEqual([idle.response.status, idle.data!.items], [200, []], 'a node of the plan with nothing on it is an empty page');
    const nope = problem(await page({ node: 'nope', job: 'j9' }), 422);
    assert.deepEqual(nope.problems, [
      { path: 'query:node', message: 'the plan has no node "nope"; its nodes: "h01", "tiny"' },
      { path: 'query:job', message: 'the plan has no job "j9"; its jobs: "j1"' },
    ]);
  });
});
