/**
 * README.md's curl blocks (besides the walk-through, which is examples/walkthrough.sh and runs in
 * walkthrough.test.ts) run with bash as written against the real service (API, a worker process, Postgres,
 * Redis). Each block is read from README.md at test time; only its placeholders are filled in: the variables
 * ($API, $FARMER, $CUSTOMER, $OP, $CLUSTER, $SOLVE) from the environment, <planId> and <id> by where they stand
 * (`"batchId": "<id>"` is a batch, `/v1/simulations/<id>` a simulation), and the files the README says the user
 * has (history.csv) are generated in the block's working directory. Every curl answers the status the comment
 * under it promises (`# -> 202`), 200 otherwise, and what it started (a forecast build, simulations) succeeds.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { usageCluster, usageCsv, usageHistory, usageSamples } from '../../harness/usage-fixtures';
import { Service, startService, waitFor } from '../../harness/service';
import { shellToolsMissing } from '../support/shell-tools';
import { commandsOf, promisedStatus, readme, ROOT, shBlocksUnder } from '../support/readme-blocks';

const run = promisify(execFile);
const example = (name: string) => JSON.parse(readFileSync(path.join(ROOT, 'examples', name), 'utf8'));
/** Prints each curl's HTTP status on stderr, leaving its output as the block wrote it. */
const STATUS_PREFIX = 'README-STATUS';
const PRELUDE = `set -euo pipefail\ncurl() { command curl -w '%{stderr}${STATUS_PREFIX} %{http_code}\\n' "$@"; }\n`;

/** Ids by collection (plans, clusters, batches, forecasts, simulations), for the placeholders. */
type Ids = Record<string, string>;

/** The block with <planId> and <id> filled in on its command lines (comments keep them). */
function fillIds(block: string, ids: Ids): string {
  const id = (collection: string) => {
    assert.ok(ids[collection], `the test has no id of ${collection} for a placeholder in:\n${block}`);
    return ids[collection];
  };
  const filled = block
    .split('\n')
    .map((line) =>
      line.trim().startsWith('#')
        ? line
        : line
            .replace(/<planId>/g, () => id('plans'))
            .replace(/"(\w+)Id": "<id>"/g, (_, name: string) => `"${name}Id": "${id(name === 'batch' ? 'batches' : `${name}s`)}"`)
            .replace(/\/v1\/([\w-]+)\/<id>/g, (_, collection: string) => `/v1/${collection}/${id(collection)}`),
    );
  for (const line of filled) if (!line.trim().startsWith('#')) assert.doesNotMatch(line.split(' # ')[0], /<\w+>/, `a placeholder the test does not know: ${line}`);
  return filled.join('\n');
}

interface Ran {
  stdout: string;
  statuses: number[];
}

/** Runs a block with bash in `cwd` and checks every curl answered what its comment promises. */
async function runBlock(block: string, cwd: string, env: Record<string, string>): Promise<Ran> {
  const r = await run('bash', ['-c', PRELUDE + block], { cwd, env: { ...process.env, ...env }, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }).catch(
    (e: { code: number; stdout: string; stderr: string }) => assert.fail(`the block exited ${e.code}:\n${block}\n${e.stdout}\n${e.stderr}`),
  );
  const statuses = [...r.stderr.matchAll(new RegExp(`^${STATUS_PREFIX} (\\d+)$`, 'gm'))].map((m) => Number(m[1]));
  const promised = commandsOf(block).filter((c) => /^\s*curl /.test(c.text)).map(promisedStatus);
  assert.ok(promised.length > 0, `no curl in:\n${block}`);
  assert.deepEqual(statuses, promised, `statuses of the block's curls:\n${block}\n${r.stdout.slice(0, 4000)}\n${r.stderr}`);
  return { stdout: r.stdout, statuses };
}

/** The leading JSON value of a text where several bodies follow each other without separators. */
function leadingJson(text: string): any {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return JSON.parse(text.slice(0, i + 1));
  }
  assert.fail(`no JSON at the start of: ${text.slice(0, 200)}`);
}

/** The ids the Location headers of a `curl -si` output name, in order. */
function locations(stdout: string): string[] {
  return [...stdout.matchAll(/^location: (\S+)\r?$/gim)].map((m) => m[1].split('/').pop()!);
}

describe("README.md's curl blocks, as written", { skip: shellToolsMissing() }, () => {
  let svc: Service;
  let dir: string;
  let env: Record<string, string>;
  const ids: Ids = {};
  let keys: { farmer: string; customer: string };

  before(async () => {
    svc = await startService();
    svc.startWorker();
    dir = mkdtempSync(path.join(tmpdir(), 'fallow-readme-'));
    keys = { farmer: (await svc.tenant('readme-farm', ['farmer'])).keys.farmer, customer: (await svc.tenant('readme-shop', ['customer'])).keys.customer };
    env = { API: svc.baseUrl, FARMER: keys.farmer, CUSTOMER: keys.customer, OP: svc.operatorKey };
    // The walk-through's cluster, forecast and batch (examples/), which the simulation blocks' values are written for.
    const farmer = svc.client(keys.farmer);
    const customer = svc.client(keys.customer);
    const cluster = await farmer.POST('/v1/clusters', { body: example('cluster.json') });
    ids.clusters = cluster.data!.id;
    const forecast = await farmer.POST('/v1/clusters/{clusterId}/forecasts', { params: { path: { clusterId: ids.clusters } }, body: example('forecast.json') });
    ids.forecasts = forecast.data!.id;
    const batch = await customer.POST('/v1/batches', { body: example('batch.json') });
    ids.batches = batch.data!.id;
    assert.ok(ids.clusters && ids.forecasts && ids.batches, JSON.stringify([cluster.error, forecast.error, batch.error]));
  });
  after(async () => {
    await svc?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Polls GET path with `key` until the work ends, and returns its last state. */
  async function ended(pathname: string, key: string): Promise<any> {
    return waitFor(`${pathname} to end`, async () => {
      const r = await fetch(svc.baseUrl + pathname, { headers: { Authorization: `Bearer ${key}` } });
      const body = (await r.json()) as { status: string };
      return ['succeeded', 'failed', 'cancelled'].includes(body.status) ? body : undefined;
    }, 90_000, 250);
  }

  it("A full solve with curl: following a solve's events instead of polling", async () => {
    const section = readme().split('\n## ').find((s) => s.startsWith('A full solve with curl'))!;
    const snippet = /`(curl -N [^`]+)`/.exec(section)?.[1];
    assert.ok(snippet, 'the section shows a curl -N command');
    const solve = await svc.client(keys.customer).POST('/v1/solves', {
      body: { ...example('solve.json'), clusterId: ids.clusters, forecastId: ids.forecasts, batchId: ids.batches },
    });
    assert.equal(solve.response.status, 202, JSON.stringify(solve.error));
    const { stdout } = await runBlock(snippet, dir, { ...env, SOLVE: solve.data!.id });
    const events = [...stdout.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    assert.equal(events[0], 'solve');
    assert.equal(events.at(-1), 'end', stdout);
    const end = JSON.parse(/event: end\ndata: (.*)/.exec(stdout)![1]);
    assert.equal(end.status, 'succeeded', stdout);
    ids.plans = end.planId;
  });

  it('Nodes lost and automatic re-planning: the settings, a node lost for two hours and back, the listings', async () => {
    const [block] = shBlocksUnder(readme(), '## Nodes lost and automatic re-planning');
    // A cluster of its own, as the walk-through's: h01 lost even for seconds would refuse the Charts block's commit.
    const cluster = (await svc.client(keys.farmer).POST('/v1/clusters', { body: example('cluster.json') })).data!.id;
    const { stdout } = await runBlock(fillIds(block, ids), dir, { ...env, CLUSTER: cluster });
    const settings = leadingJson(stdout);
    assert.deepEqual({ enabled: settings.enabled, threshold: settings.forecastMissThreshold }, { enabled: true, threshold: 0.25 });
    const events = await svc.client(keys.farmer).GET('/v1/clusters/{id}/events', { params: { path: { id: cluster } } });
    const [back, lost] = events.data!.items;
    assert.deepEqual([back.type, back.node, lost.type, lost.node, lost.reason], ['node-back', 'h01', 'node-lost', 'h01', "the owner's nightly batch"]);
    const hours = (Date.parse(lost.until!) - Date.parse(lost.at)) / 3_600_000;
    assert.ok(hours > 1.9 && hours < 2.1, `lost for two hours: ${lost.at} to ${lost.until}`);
  });

  it('Forecasting over HTTP: the history is stored, summarised, and the build it starts succeeds', async () => {
    const [block] = shBlocksUnder(readme(), '## Forecasting over HTTP');
    const cluster = await svc.client(keys.farmer).POST('/v1/clusters', { body: usageCluster(2, ['cpu', 'ram'], 'history') as never });
    const samples = usageSamples(usageHistory({ nodes: 2, days: 3, seed: 7 }));
    writeFileSync(path.join(dir, 'history.csv'), usageCsv(samples));
    const { stdout } = await runBlock(fillIds(block, ids), dir, { ...env, CLUSTER: cluster.data!.id });

    const stored = leadingJson(stdout);
    const shown = commandsOf(block)[0].notes.join(' ');
    const shownKeys = [...shown.replace(/^.*?-> /, '').matchAll(/"(\w+)":/g)].map((m) => m[1]);
    assert.deepEqual(Object.keys(stored), shownKeys, `the answer has the fields the comment shows: ${shown}`);
    assert.deepEqual([stored.accepted, stored.duplicates, stored.nodes, stored.metrics], [samples.length, 0, 2, ['cpu', 'ram']]);
    const [build] = locations(stdout);
    assert.ok(build, stdout);
    const done = await ended(`/v1/forecast-builds/${build}`, keys.farmer);
    assert.equal(done.status, 'succeeded', JSON.stringify(done));
    assert.ok(done.forecastId, 'a succeeded build names its forecast');
  });

  it('Simulating a plan over HTTP: a replay of a plan, the list, and an online policy', async () => {
    assert.ok(ids.plans, 'the events test solved the walk-through batch');
    const [replay, policy] = shBlocksUnder(readme(), '## Simulating a plan over HTTP');
    const first = await runBlock(fillIds(replay, ids), dir, env);
    const [simulation] = locations(first.stdout);
    const listed = JSON.parse(first.stdout.slice(first.stdout.lastIndexOf('{"items"')));
    assert.deepEqual(listed.items.map((s: { id: string }) => s.id), [simulation], 'the list shows the simulation just posted');
    const done = await ended(`/v1/simulations/${simulation}`, keys.customer);
    assert.equal(done.status, 'succeeded', JSON.stringify(done));
    assert.ok(done.report.makespanSeconds > 0);
    ids.simulations = simulation;

    const second = await runBlock(fillIds(policy, ids), dir, env);
    const online = await ended(`/v1/simulations/${locations(second.stdout)[0]}`, keys.customer);
    assert.equal(online.status, 'succeeded', JSON.stringify(online));
    for (const field of ['utilisation', 'ruByNode', 'jainFairness']) assert.ok(field in online.report, `the report adds ${field}`);
  });

  it('Charts: the SVGs are written, the spec and the revenue chart printed', async () => {
    assert.ok(ids.simulations, 'the simulation test replayed the plan');
    const [block] = shBlocksUnder(readme(), '## Charts').filter((b) => /\bcurl /.test(b));
    const { stdout } = await runBlock(fillIds(block, ids), dir, env);
    for (const file of ['gantt.svg', 'util.svg']) assert.match(readFileSync(path.join(dir, file), 'utf8'), /^<svg[^]*<\/svg>\s*$/, file);
    const spec = leadingJson(stdout);
    assert.match(spec.$schema, /vega-lite/);
    assert.match(stdout, /<svg[^]*revenue/i);
    // The block committed the plan, so accounting (committed plans only) now bills its job.
    const plan = await svc.client(keys.customer).GET('/v1/plans/{id}', { params: { path: { id: ids.plans } } });
    assert.ok(['committed', 'completed'].includes(plan.data!.status), plan.data!.status);
    const bill = (await (await fetch(`${svc.baseUrl}/v1/accounting/customer`, { headers: { Authorization: `Bearer ${keys.customer}` } })).json()) as { jobs: { job: string }[] };
    assert.deepEqual(bill.jobs.map((j) => j.job), example('batch.json').jobs.map((j: { id: string }) => j.id));
  });
});
