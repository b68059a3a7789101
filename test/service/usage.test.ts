/**
 * Usage history ingestion against the real service: JSON and CSV bodies with their counts, duplicates
 * (stored or repeated in a request) ignored and counted, every bad sample named by its path with nothing
 * written, the route's own body limit, the summary, and who may post and read a cluster's usage.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { problem } from '../support/problem';
import { Service, startService } from '../../harness/service';
import { UsageSample, usageCluster, usageCsv, usageHistory, usageSamples } from '../../harness/usage-fixtures';

const DAY = 86_400;
const START = 1_704_067_200; // 2024-01-01T00:00:00Z

describe('usage history', () => {
  let svc: Service;
  let a: { id: string; keys: Record<string, string> };
  let b: { id: string; keys: Record<string, string> };
  /** A day of 3 nodes x 2 metrics at 5 minutes: 1,728 samples (about 130 kB of JSON, over the 100 kB body limit below). */
  const day1 = usageSamples(usageHistory({ nodes: 3, days: 1, seed: 1 }));
  const day2 = usageSamples(usageHistory({ nodes: 3, days: 1, seed: 2, start: START + DAY }));

  const newCluster = async (name: string) => {
    const r = await svc.client(a.keys.farmer).POST('/v1/clusters', { body: usageCluster(3, ['cpu', 'ram'], name) });
    assert.equal(r.response.status, 201, JSON.stringify(r.error));
    return r.data!.id;
  };
  const post = (id: string, samples: unknown[], key = a.keys.farmer) =>
    svc.client(key).POST('/v1/clusters/{clusterId}/usage', { params: { path: { clusterId: id } }, body: { samples: samples as UsageSample[] } });
  const postRaw = (id: string, body: string, type: string | null, key = a.keys.farmer) =>
    fetch(`${svc.baseUrl}/v1/clusters/${id}/usage`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, ...(type ? { 'Content-Type': type } : {}) }, body });
  const stored = async (id: string) =>
    Number((await svc.sql<{ n: number }>('SELECT count(*)::int AS n FROM usage_samples u JOIN usage_series s ON s.id = u.series_id WHERE s.cluster_id = $1', [id]))[0].n);

  before(async () => {
    // A small global body limit: the usage route must still take bodies above it, up to its own limit.
    svc = await startService({ bodyLimit: '100kb', usageBodyLimit: '1mb' });
    a = await svc.tenant('usage-a', ['farmer', 'customer']);
    b = await svc.tenant('usage-b', ['farmer']);
  });
  after(async () => svc?.close());

  it('ingests JSON samples and counts them; a re-post changes nothing', async () => {
    const id = await newCluster('json');
    assert.ok(JSON.stringify({ samples: day1 }).length > 100_000);
    const r = await post(id, day1);
    assert.equal(r.response.status, 200, JSON.stringify(r.error));
    assert.deepEqual(r.data, { accepted: 1728, duplicates: 0, nodes: 3, metrics: ['cpu', 'ram'], from: '2024-01-01T00:00:00.000Z', to: '2024-01-01T23:55:00.000Z' });
    assert.equal(await stored(id), 1728);

    // The same samples again: all duplicates. One of them with another value: a 409 naming it, nothing written.
    const r2 = await post(id, day1);
    assert.equal(r2.response.status, 200, JSON.stringify(r2.error));
    assert.equal(r2.data!.accepted, 0);
    assert.equal(r2.data!.duplicates, 1728);
    const again = [...day2.slice(0, 3), ...day1.map((s, i) => (i === 5 ? { ...s, value: 0.999 } : s))];
    const conflict = await post(id, again);
    assert.equal(conflict.response.status, 409);
    const problems = (conflict.error as { problems: { path: string; message: string }[] }).problems;
    assert.equal(problems.length, 1);
    assert.match(problems[0].message, new RegExp(`node "${day1[5].node}" metric "${day1[5].metric}" at ${day1[5].timestamp} .*stored ${day1[5].value}, now 0.999`));
    assert.equal(await stored(id), 1728, 'the new samples of the refused request were not written either');
    const kept = await svc.sql<{ value: number }>(
      `SELECT u.value FROM usage_samples u JOIN usage_series s ON s.id = u.series_id WHERE s.cluster_id = $1 AND s.node = $2 AND s.metric = $3 AND u.ts = to_timestamp($4)`,
      [id, day1[5].node, day1[5].metric, day1[5].timestamp],
    );
    assert.deepEqual(kept, [{ value: day1[5].value }]);
    const contradiction = await post(id, [day2[20], { ...day2[20], value: day2[20].value === 0.5 ? 0.6 : 0.5 }]);
    assert.equal(contradiction.response.status, 409, 'a request that repeats a sample with another value');
    assert.match((contradiction.error as { problems: { message: string }[] }).problems[0].message, /first sent as/);

    // Overlapping and new samples together, in any order, with a repeat inside the request.
    const mixed = [...day2.slice(0, 10).reverse(), day1[0], day2[3]];
    const r3 = await post(id, mixed);
    assert.equal(r3.response.status, 200, JSON.stringify(r3.error));
    assert.equal(r3.data!.accepted, 10);
    assert.equal(r3.data!.duplicates, 2);
    assert.equal(await stored(id), 1738);
  });

  it('ingests CSV (Content-Type: text/csv) and summarises per node and metric', async () => {
    const id = await newCluster('csv');
    const csv = usageCsv(day1).replace(/\n/g, '\r\n'); // Windows line ends are fine
    const r = await postRaw(id, csv, 'text/csv');
    assert.equal(r.status, 200, await r.clone().text());
    assert.deepEqual(await r.json(), { accepted: 1728, duplicates: 0, nodes: 3, metrics: ['cpu', 'ram'], from: '2024-01-01T00:00:00.000Z', to: '2024-01-01T23:55:00.000Z' });
    const r2 = await postRaw(id, usageCsv([...day1.slice(0, 100), ...day2]), 'text/csv');
    assert.deepEqual(await r2.json(), { accepted: 1728, duplicates: 100, nodes: 3, metrics: ['cpu', 'ram'], from: '2024-01-01T00:00:00.000Z', to: '2024-01-02T23:55:00.000Z' });

    const s = await svc.client(a.keys.farmer).GET('/v1/clusters/{clusterId}/usage/summary', { params: { path: { clusterId: id } } });
    assert.equal(s.response.status, 200, JSON.stringify(s.error));
    assert.equal(s.data!.samples, 3456);
    assert.equal(s.data!.from, '2024-01-01T00:00:00.000Z');
    assert.equal(s.data!.to, '2024-01-02T23:55:00.000Z');
    assert.deepEqual(
      s.data!.series.map((x) => `${x.node}/${x.metric}:${x.samples}`),
      ['h001/cpu:576', 'h001/ram:576', 'h002/cpu:576', 'h002/ram:576', 'h003/cpu:576', 'h003/ram:576'],
    );
    assert.ok(s.data!.series.every((x) => x.from === '2024-01-01T00:00:00.000Z' && x.to === '2024-01-02T23:55:00.000Z'));

    const empty = await svc.client(a.keys.farmer).GET('/v1/clusters/{clusterId}/usage/summary', { params: { path: { clusterId: await newCluster('empty') } } });
    assert.deepEqual(empty.data, { clusterId: empty.data!.clusterId, samples: 0, from: null, to: null, series: [] });
  });

  it('names every bad JSON sample by its path and writes nothing', async () => {
    const id = await newCluster('bad-json');
    const good = day1.slice(0, 20);
    const bad: unknown[] = [...good];
    bad[3] = { ...good[3], node: 'h999' };
    bad[5] = { ...good[5], metric: 'gpu' };
    bad[7] = { ...good[7], value: 1.5 };
    bad[8] = { ...good[8], value: '0.5' };
    bad[11] = { ...good[11], timestamp: good[11].timestamp * 1000 };
    bad[12] = { ...good[12], timestamp: 1704067200.5 };
    bad[13] = { timestamp: good[13].timestamp, node: 'h001', value: 0.1 };
    bad[14] = { ...good[14], unit: '%' };
    bad[15] = 42;
    const r = await post(id, bad);
    const body = problem(r, 422);
    assert.deepEqual(
      body.problems.map((p) => p.path),
      ['samples[3].node', 'samples[5].metric', 'samples[7].value', 'samples[8].value', 'samples[11].timestamp', 'samples[12].timestamp', 'samples[13].metric', 'samples[14].unit', 'samples[15]'],
      JSON.stringify(body.problems, null, 1),
    );
    assert.match(body.problems[0].message, /unknown node "h999"/);
    assert.match(body.problems[1].message, /unknown metric "gpu" \(the cluster has cpu, ram\)/);
    assert.match(body.problems[2].message, /\[0, 1\].*got 1\.5/);
    assert.match(body.problems[4].message, /whole Unix seconds/);
    assert.match(body.detail ?? '', /9 problems.*nothing was written/);
    assert.equal(await stored(id), 0);
    assert.equal((await svc.sql('SELECT 1 FROM usage_series WHERE cluster_id = $1', [id])).length, 0);

    // Many bad samples: the first 100 are listed, the detail counts them all.
    const many = day1.slice(0, 150).map((s) => ({ ...s, value: -1 }));
    const capped = problem(await post(id, many), 422);
    assert.equal(capped.problems.length, 100);
    assert.equal(capped.problems[99].path, 'samples[99].value');
    assert.match(capped.detail ?? '', /150 problems in the samples; the first 100 are listed/);

    // The shape itself.
    assert.deepEqual(problem(await post(id, []), 422).problems, [{ path: 'samples', message: 'must hold at least one sample' }]);
    const shape = await postRaw(id, JSON.stringify({ sample: [] }), 'application/json');
    assert.equal(shape.status, 422);
    assert.deepEqual(((await shape.json()) as { problems: { path: string }[] }).problems.map((p) => p.path), ['sample', 'samples']);
    assert.equal(await stored(id), 0);
  });

  it('names every bad CSV line and writes nothing; malformed bodies and other media types are rejected', async () => {
    const id = await newCluster('bad-csv');
    const lines = usageCsv(day1.slice(0, 10)).split('\n');
    lines[2] = lines[2].replace(/,[^,]*$/, ',abc');
    lines[4] = lines[4].replace(/,h00\d,/, ',nope,');
    lines[6] = '1704067200,h001,cpu';
    lines[8] = lines[8].replace(/,[^,]*$/, ',0x1'); // Number() reads it as 1
    const r = await postRaw(id, lines.join('\n'), 'text/csv');
    assert.equal(r.status, 422);
    const body = (await r.json()) as { problems: { path: string; message: string }[] };
    assert.deepEqual(body.problems.map((p) => `${p.path}: ${p.message.split(':')[0]}`), ['line 3: value', 'line 5: node', 'line 7: expected 4 comma-separated fields (timestamp,node,metric,value), got 3', 'line 9: value']);
    assert.match(body.problems[0].message, /value: must be a utilisation fraction in \[0, 1\].*got "abc"/);

    const header = await postRaw(id, 'time,host,metric,value\n1704067200,h001,cpu,0.5\n', 'text/csv');
    assert.equal(header.status, 422);
    assert.equal(((await header.json()) as { problems: { path: string }[] }).problems[0].path, 'line 1');
    assert.equal(await stored(id), 0);

    assert.equal((await postRaw(id, '{"samples": [', 'application/json')).status, 400);
    const plain = await postRaw(id, 'timestamp,node,metric,value\n', 'text/plain');
    assert.equal(plain.status, 415);
    assert.match(plain.headers.get('content-type') ?? '', /^application\/problem\+json/);
  });

  it('takes bodies above FALLOW_BODY_LIMIT up to its own limit', async () => {
    const id = await newCluster('limits');
    // Over the usage limit (1 MB here): 413, and other routes keep the global limit.
    const big = usageSamples(usageHistory({ nodes: 3, days: 10, seed: 3 }));
    assert.ok(JSON.stringify({ samples: big }).length > 1_000_000);
    assert.equal((await post(id, big)).response.status, 413);
    const forecast = await svc.client(a.keys.farmer).POST('/v1/clusters/{clusterId}/forecasts', {
      params: { path: { clusterId: id } },
      body: { slotSeconds: 300, slots: 10_000, usage: { h001: { cpu: Array(10_000).fill(0.123456789) } } },
    });
    assert.equal(forecast.response.status, 413);
  });

  it('belongs to the cluster owner: another farmer gets 404, a customer 403, an operator may post', async () => {
    const id = await newCluster('tenancy');
    assert.equal(problem(await post(id, day1.slice(0, 5), b.keys.farmer), 404).status, 404);
    const summary = (key: string) => svc.client(key).GET('/v1/clusters/{clusterId}/usage/summary', { params: { path: { clusterId: id } } });
    problem(await summary(b.keys.farmer), 404);
    problem(await post(id, day1.slice(0, 5), a.keys.customer), 403);
    problem(await summary(a.keys.customer), 403);
    assert.equal(await stored(id), 0);
    const r = await post(id, day1.slice(0, 5), svc.operatorKey);
    assert.equal(r.response.status, 200, JSON.stringify(r.error));
    assert.equal((await summary(a.keys.farmer)).data!.samples, 5);
    problem(await post('00000000-0000-4000-8000-000000000000', day1.slice(0, 5)), 404);
  });
});
