/**
 * The "usage" part of the service benchmark (bench/service.ts): POST /v1/clusters/{id}/usage end to end
 * (HTTP, parsing, validation, COPY into Postgres) with a week of 5-minute samples of 100 nodes x 2 metrics
 * (403,200 samples), the case, as JSON and as CSV into a fresh cluster each time, and the same JSON
 * again into a cluster that already holds it (every sample a duplicate). Target: under 2 s per request.
 */
import { performance } from 'node:perf_hooks';
import { Service } from '../../harness/service';
import { usageCluster, usageCsv, usageHistory, usageSamples } from '../../harness/usage-fixtures';
import { Summary, summarize } from '../lib/stats';

export const TARGET_USAGE_MS = 2000;

export interface UsageSeries {
  name: string;
  /** What the last response said (accepted, duplicates). */
  response: string;
  samplesMs: number[];
  summary: Summary;
}

export interface UsageResult {
  nodes: number;
  days: number;
  samples: number;
  jsonMB: number;
  csvMB: number;
  series: UsageSeries[];
  targetMs: number;
}

export async function benchUsage(svc: Service, reps: number, log: (m: string) => void, nodes = 100, days = 7): Promise<UsageResult> {
  const tenant = await svc.tenant('bench-usage', ['farmer']);
  const farmer = svc.client(tenant.keys.farmer);
  let n = 0;
  const newCluster = async () => {
    const r = await farmer.POST('/v1/clusters', { body: usageCluster(nodes, ['cpu', 'ram'], `usage-${++n}`) });
    if (!r.data) throw new Error(`POST /v1/clusters: ${JSON.stringify(r.error)}`);
    return r.data.id;
  };
  const samples = usageSamples(usageHistory({ nodes, days, seed: 7 }));
  const json = JSON.stringify({ samples });
  const csv = usageCsv(samples);
  const post = async (id: string, body: string, type: string): Promise<{ ms: number; response: string }> => {
    const t0 = performance.now();
    const r = await fetch(`${svc.baseUrl}/v1/clusters/${id}/usage`, { method: 'POST', headers: { Authorization: `Bearer ${tenant.keys.farmer}`, 'Content-Type': type }, body });
    const text = await r.text();
    const ms = Math.round(performance.now() - t0);
    if (r.status !== 200 && r.status !== 201) throw new Error(`POST usage: ${r.status} ${text.slice(0, 200)}`);
    const out = JSON.parse(text) as { accepted: number; duplicates: number };
    return { ms, response: `accepted ${out.accepted}, duplicates ${out.duplicates}` };
  };
  const run = async (name: string, once: () => Promise<{ ms: number; response: string }>): Promise<UsageSeries> => {
    await once(); // warm-up, not recorded
    const ms: number[] = [];
    let response = '';
    for (let i = 0; i < reps; i++) {
      const r = await once();
      ms.push(r.ms);
      response = r.response;
    }
    log(`usage: ${name}: ${ms.join(', ')} ms`);
    return { name, response, samplesMs: ms, summary: summarize(ms) };
  };
  log(`usage: ${samples.length} samples, JSON ${(json.length / 1e6).toFixed(1)} MB, CSV ${(csv.length / 1e6).toFixed(1)} MB; ${reps} runs each after a warm-up`);
  const full = await newCluster();
  await post(full, json, 'application/json');
  const series = [
    await run('JSON, new samples (fresh cluster)', async () => post(await newCluster(), json, 'application/json')),
    await run('CSV, new samples (fresh cluster)', async () => post(await newCluster(), csv, 'text/csv')),
    await run('JSON, every sample a duplicate', () => post(full, json, 'application/json')),
  ];
  return { nodes, days, samples: samples.length, jsonMB: json.length / 1e6, csvMB: csv.length / 1e6, series, targetMs: TARGET_USAGE_MS };
}
