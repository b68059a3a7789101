/**
 * Measures POST /v1/clusters/{id}/usage end to end (HTTP, parsing, validation, COPY into Postgres) for a
 * week of 100 nodes x 2 metrics at 5 minutes (403,200 samples), as JSON and as CSV, and a re-post of the
 * same samples (all duplicates), and a GBT forecast build on that history. Not a test: timings are printed.
 *
 *   bash scripts/ensure-services.sh && set -a && . .tmp/services.env && set +a
 *   node dist/test/support/usage-ingest-timing.js [nodes] [days]
 */
import { startService, waitFor } from '../../harness/service';
import { usageCluster, usageCsv, usageHistory, usageSamples } from '../../harness/usage-fixtures';

async function main(): Promise<void> {
  const nodes = Number(process.argv[2] ?? 100);
  const days = Number(process.argv[3] ?? 7);
  const svc = await startService({ workerConcurrency: 1 });
  try {
    const t = await svc.tenant('timing', ['farmer']);
    const farmer = svc.client(t.keys.farmer);
    const cluster = async (name: string) => (await farmer.POST('/v1/clusters', { body: usageCluster(nodes, ['cpu', 'ram'], name) })).data!.id;
    const samples = usageSamples(usageHistory({ nodes, days, seed: 7 }));
    const json = JSON.stringify({ samples });
    const csv = usageCsv(samples);
    console.log(`${samples.length} samples: JSON ${(json.length / 1e6).toFixed(1)} MB, CSV ${(csv.length / 1e6).toFixed(1)} MB`);
    const post = async (label: string, id: string, body: string, type: string) => {
      const t0 = performance.now();
      const r = await fetch(`${svc.baseUrl}/v1/clusters/${id}/usage`, { method: 'POST', headers: { Authorization: `Bearer ${t.keys.farmer}`, 'Content-Type': type }, body });
      const out = await r.json();
      console.log(`${label}: ${r.status} in ${Math.round(performance.now() - t0)} ms`, JSON.stringify(out).slice(0, 160));
    };
    const a = await cluster('json');
    await post('JSON, new', a, json, 'application/json');
    await post('JSON, all duplicates', a, json, 'application/json');
    await post('CSV, new', await cluster('csv'), csv, 'text/csv');

    svc.startWorker();
    const t0 = performance.now();
    const b = await farmer.POST('/v1/clusters/{clusterId}/forecasts:build', { params: { path: { clusterId: a } }, body: { horizonSlots: 288, slotSeconds: 300, model: 'gbt' } });
    const done = await waitFor('the build', async () => {
      const g = await farmer.GET('/v1/forecast-builds/{id}', { params: { path: { id: b.data!.id } } });
      return g.data && ['succeeded', 'failed'].includes(g.data.status) ? g.data : undefined;
    }, 300_000, 200);
    console.log(`GBT build: ${done.status} in ${Math.round(performance.now() - t0)} ms (queue to stored) ${done.error ?? ''}`);
    if (done.forecastId) {
      const f = await farmer.GET('/v1/forecasts/{id}', { params: { path: { id: done.forecastId } } });
      console.log('provenance', JSON.stringify(f.data!.provenance, null, 1));
    }
  } finally {
    await svc.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
