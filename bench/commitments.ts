/**
 * Quotes and commits against a busy cluster (issue 37's speed target: a quote of a 100-task job on a cluster
 * holding 5,000 committed tasks answers in under 300 ms), through the real API, Postgres, Redis and a worker.
 *
 * One lendable cluster (100 nodes, cpu and ram, up to 32 tasks each, a one-day forecast of 90 s slots with a
 * regular load of 20-50 %) is filled with committed plans of 500-task batches (solved by reference with rffd,
 * committed through the API) up to each level of committed tasks (default 0, 1,000, 5,000, 10,000). At each
 * level:
 *   - quote:  POST /v1/quotes of one 100-task job (80 maps, 20 reduces), sequentially, after warm-ups;
 *   - commit: proposals of 100-task batches solved at that level, each committed (timed) and then released
 *             (not timed), so the level holds while it is measured.
 *
 *   npm run bench:commitments [-- options]      writes bench/results/commitments-<date>.json and bench/COMMITMENTS.md
 */
import { writeFileSync } from 'node:fs';
import * as os from 'node:os';
import { performance } from 'node:perf_hooks';
import { startService, waitFor } from '../harness/service';
import { command, runEntry } from './lib/cli';
import { machineInfo, timestamp } from './lib/machine';
import { runLine, table } from './lib/markdown';
import { benchFile } from './lib/paths';
import { resultsFile, writeJson } from './lib/results';
import { summarize, Summary } from './lib/stats';

const COMMAND = command({
  name: 'bench:commitments',
  usage: 'usage: npm run bench:commitments -- [options]      (writes bench/results/commitments-<date>.json and bench/COMMITMENTS.md)',
  options: {
    levels: { kind: 'string', default: '0,1000,5000,10000', arg: 'N,N', help: 'committed tasks at which to measure (default 0,1000,5000,10000; multiples of 500)' },
    quotes: { kind: 'integer', min: 1, default: 30, arg: 'N', help: 'measured quotes per level (default 30, after 3 warm-ups)' },
    commits: { kind: 'integer', min: 1, default: 10, arg: 'N', help: 'measured commits per level (default 10, after 1 warm-up)' },
    note: { kind: 'strings', arg: 'TEXT', help: 'a remark stored in the results and printed in the report (repeatable)' },
  },
});

const NODES = 100;
const SLOTS = 960;
const SLOT_SECONDS = 90;
const T0 = '2030-09-01T00:00:00.000Z';
const FILL_TASKS = 500;

function rand(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

function cluster() {
  return {
    name: 'busy',
    metrics: ['cpu', 'ram'],
    lendable: true,
    nodes: Array.from({ length: NODES }, (_, k) => ({ id: `n${String(k).padStart(3, '0')}`, capacity: { cpu: 32, ram: 128 }, maxTasks: 32, rack: `r${k % 10}` })),
  };
}

function forecastUsage(): Record<string, Record<string, number[]>> {
  const r = rand(7);
  const out: Record<string, Record<string, number[]>> = {};
  for (let k = 0; k < NODES; k++) {
    const base = 0.2 + 0.3 * r();
    const series = Array.from({ length: SLOTS }, (_, t) => Math.round((base + 0.05 * Math.sin((2 * Math.PI * t) / SLOTS)) * 1000) / 1000);
    out[`n${String(k).padStart(3, '0')}`] = { cpu: series, ram: series };
  }
  return out;
}

/** A job of `tasks` tasks: 80 % maps, 20 % reduces after them, 1 core and 2 GB each, 10 to 20 minutes. */
function job(id: string, tasks: number, seed: number) {
  const r = rand(seed);
  const maps = Math.round(tasks * 0.8);
  return {
    id,
    revenue: { onTime: 10, late: 2 },
    stages: [
      { id: 'map', tasks: maps, demand: { cpu: 1, ram: 2 }, durationSeconds: 600 + Math.round(r() * 600) },
      { id: 'reduce', tasks: tasks - maps, after: ['map'], demand: { cpu: 1, ram: 2 }, durationSeconds: 600 + Math.round(r() * 600) },
    ],
  };
}

interface Level {
  committedTasks: number;
  quoteMs: Summary;
  commitMs: Summary;
  /** Jobs the measured quotes accepted (of one each): all should be. */
  quotesAccepted: number;
}

runEntry(COMMAND, async ({ values: v }) => {
  const log = (m: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${m}\n`);
  const levels = v.levels.split(',').map((x) => Number(x.trim()));
  if (levels.some((l) => !Number.isInteger(l) || l < 0 || l % FILL_TASKS)) throw new Error(`--levels: whole multiples of ${FILL_TASKS}, got ${v.levels}`);
  const loadAtStart = os.loadavg().map((x) => Math.round(x * 100) / 100);
  const svc = await startService();
  svc.startWorker();
  try {
    const farmer = (await svc.tenant('bench-farm', ['farmer'])).keys.farmer;
    const post = async (key: string, url: string, body?: unknown): Promise<{ status: number; json: any; ms: number }> => {
      const t0 = performance.now();
      const res = await fetch(svc.baseUrl + url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      const json = await res.json();
      return { status: res.status, json, ms: performance.now() - t0 };
    };
    const c = await post(farmer, '/v1/clusters', cluster());
    const clusterId: string = c.json.id;
    const f = await post(farmer, `/v1/clusters/${clusterId}/forecasts`, { slotSeconds: SLOT_SECONDS, slots: SLOTS, startsAt: T0, usage: forecastUsage() });
    if (f.status !== 201) throw new Error(`forecast: ${JSON.stringify(f.json)}`);
    const customers: string[] = [];
    for (let i = 0; i < 4; i++) customers.push((await svc.tenant(`bench-customer-${i}`, ['customer'])).keys.customer);

    let seq = 0;
    /** A solve of a fresh batch of `tasks` tasks (jobs of 100), waited for: its plan id. */
    const propose = async (key: string, tasks: number): Promise<string> => {
      const jobs = Array.from({ length: tasks / 100 }, (_, j) => job(`j${seq}-${j}`, 100, ++seq));
      const b = await post(key, '/v1/batches', { name: `b${seq}`, jobs });
      const s = await post(key, '/v1/solves', { clusterId, batchId: b.json.id, startsAt: T0, strategy: 'rffd', timeBudgetMs: 1000 });
      if (s.status !== 202) throw new Error(`solve: ${JSON.stringify(s.json)}`);
      const done = await waitFor('solve', async () => {
        const r = await fetch(`${svc.baseUrl}/v1/solves/${s.json.id}`, { headers: { authorization: `Bearer ${key}` } });
        const j = (await r.json()) as { status: string; planId: string | null; error: string | null };
        return j.status === 'queued' || j.status === 'running' ? undefined : j;
      }, 120_000, 50);
      if (!done.planId) throw new Error(`solve ended ${done.status}: ${done.error}`);
      return done.planId;
    };

    const results: Level[] = [];
    let committed = 0;
    for (const level of levels) {
      while (committed < level) {
        const key = customers[(committed / FILL_TASKS) % customers.length];
        const r = await post(key, `/v1/plans/${await propose(key, FILL_TASKS)}/commit`);
        if (r.status !== 200) throw new Error(`fill commit: ${JSON.stringify(r.json)}`);
        committed += FILL_TASKS;
        if (committed % 2500 === 0) log(`${committed} committed tasks`);
      }
      const [holds] = await svc.sql<{ n: number }>('SELECT count(*)::int AS n FROM plan_holds');
      if (holds.n !== level) throw new Error(`expected ${level} holds, found ${holds.n}`);
      log(`level ${level}: quotes`);
      const quoteMs: number[] = [];
      let accepted = 0;
      for (let i = 0; i < 3 + v.quotes; i++) {
        const q = await post(customers[0], '/v1/quotes', { clusterId, startsAt: T0, jobs: [job('quoted', 100, 1000 + i)] });
        if (q.status !== 200) throw new Error(`quote: ${JSON.stringify(q.json)}`);
        if (i >= 3) {
          quoteMs.push(q.ms);
          accepted += q.json.acceptedJobs;
        }
      }
      log(`level ${level}: commits`);
      const commitMs: number[] = [];
      for (let i = 0; i < 1 + v.commits; i++) {
        const key = customers[1 + (i % 3)];
        const planId = await propose(key, 100);
        const r = await post(key, `/v1/plans/${planId}/commit`);
        if (r.status !== 200) throw new Error(`commit: ${JSON.stringify(r.json)}`);
        if (i >= 1) commitMs.push(r.ms);
        const rel = await post(key, `/v1/plans/${planId}/release`);
        if (rel.status !== 200) throw new Error(`release: ${JSON.stringify(rel.json)}`);
      }
      results.push({ committedTasks: level, quoteMs: summarize(quoteMs), commitMs: summarize(commitMs), quotesAccepted: accepted });
      log(`level ${level}: quote median ${results.at(-1)!.quoteMs.median} ms, commit median ${results.at(-1)!.commitMs.median} ms`);
    }

    const machine = machineInfo();
    const date = new Date().toISOString();
    const load = { atStart: loadAtStart, atEnd: os.loadavg().map((x) => Math.round(x * 100) / 100) };
    const file = writeJson(resultsFile(`commitments-${timestamp()}.json`), { format: 'fallow.bench-commitments/v1', date, machine, load, notes: v.note, cluster: { nodes: NODES, slots: SLOTS, slotSeconds: SLOT_SECONDS }, levels: results });
    const md = [
      '# Quotes and commits on a busy cluster',
      '',
      runLine(date, machine, 'npm run bench:commitments'),
      `Results: ${file.replace(/.*\/bench\//, 'bench/')}.`,
      '',
      `One lendable cluster of ${NODES} nodes (cpu 32, ram 128, 32 task slots each), a forecast of ${SLOTS} slots of ${SLOT_SECONDS} s`,
      '(one day) with a regular load of 20-50 %, filled with committed plans of 500-task batches. Latency is one HTTP',
      'round trip from this process to the API (in the same process), measured sequentially: a quote of one 100-task job',
      '(80 maps, 20 reduces) planned greedily (quote-greedy) around every committed task; a commit of a 100-task plan (checked',
      'with the evaluator against the cluster, holds written), released after each measure so the level holds.',
      '',
      ...table(
        ['committed tasks', 'quote median ms', 'quote p90 ms', 'quote max ms', 'commit median ms', 'commit p90 ms', 'commit max ms', 'quotes accepting the job'],
        results.map((r) => [r.committedTasks, r.quoteMs.median ?? '-', r.quoteMs.p90 ?? '-', r.quoteMs.max ?? '-', r.commitMs.median ?? '-', r.commitMs.p90 ?? '-', r.commitMs.max ?? '-', `${r.quotesAccepted}/${r.quoteMs.n}`]),
      ),
      '',
      'Target (issue 37): a quote of a 100-task job on a cluster holding 5,000 committed tasks under 300 ms.',
      `Load average (1, 5, 15 min) at the start ${load.atStart.join(', ')}, at the end ${load.atEnd.join(', ')}: the machine is shared, so read the medians first.`,
      ...(v.note.length ? ['', ...v.note.map((n) => `Note: ${n}`)] : []),
      '',
    ].join('\n');
    writeFileSync(benchFile('COMMITMENTS.md'), md);
    log(`wrote ${file} and bench/COMMITMENTS.md`);
  } finally {
    await svc.close();
  }
});
