/**
 * The service at operator size (issue 40 part 3; npm run bench:service-scale): a 100,000-task instance on 999 nodes
 * (harness/scale-instance.ts, revenues in minor units: harness/scale-service.ts) through the real API and one worker
 * against the local Postgres and Redis, per run (a fresh seed each):
 *   inline     POST /v1/solves with the whole instance, polled until stored: the POST, the queue wait, the engine,
 *              what follows it (the result to the worker's event loop, the plan stored), submit to stored;
 *   reference  the same instance posted as a cluster, a forecast and a batch, then solved by reference;
 *   storage    per plan: its document (jsonb, compressed), its assignment rows, and both tables with their
 *              indexes and TOAST divided by the plans stored;
 *   reads      the whole plan, its summary, every page of its assignments (5,000 a page) in plan and start
 *              order, one node's tasks in a window of slots, one window over the whole plan;
 *   charts     GET gantt.svg and utilisation.svg, first (a stored rendering read, or read, build, render) and again
 *              (cached), where the first came from (X-Chart-Source), and the cells; the charts the worker stored
 *              with the plan (its render time, their size) and how long storing the plan waited for them;
 *   page       the plan page in headless chromium (the reference plan's, whose charts the API has not served yet):
 *              from the key's submit to every chart in, then a reload; skipped without chromium (it says why);
 *   worker     the worker process's peak resident memory over the run's two solves (VmHWM).
 * Writes bench/SERVICE-SCALE.md (medians, min and max over the runs, machine and date) and bench/results/service-scale-<time>.json.
 */
import { ConnectionOptions, Queue } from 'bullmq';
import { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromiumMissing, launchChromium } from '../harness/browser';
import { instanceParts, serviceScaleInstance } from '../harness/scale-service';
import { Service, startService, stopChild, waitFor } from '../harness/service';
import type { InstanceDoc } from '../src/engine/model/types';
import type { PrerenderOutcome } from '../src/modules/charts/stored-plan-charts';
import { redisOptions } from '../src/modules/queue/redis-options';
import { command, EntryArgs, runEntry } from './lib/cli';
import { machineInfo, timestamp } from './lib/machine';
import { generatedLine, table } from './lib/markdown';
import { benchFile, sharedDir } from './lib/paths';
import { resultsFile, writeJson } from './lib/results';
import { summarize } from './lib/stats';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const COMMAND = command({
  name: 'bench:service-scale',
  usage: 'usage: npm run bench:service-scale -- [options]     (writes bench/SERVICE-SCALE.md)',
  options: {
    runs: { kind: 'integer', min: 1, default: 3, arg: 'N', help: 'runs, each on a fresh seed (default 3)' },
    seed: { kind: 'integer', min: 1, default: 1, arg: 'N', help: 'first seed (default 1)' },
    tasks: { kind: 'integer', min: 1, default: 100_000, arg: 'N', help: 'tasks of the instance (default 100000)' },
    nodes: { kind: 'integer', min: 1, default: 999, arg: 'N', help: 'nodes of the instance (default 999)' },
    strategy: { kind: 'string', default: 'rffd', arg: 'NAME', help: 'strategy of both solves (default rffd)' },
    'budget-ms': { kind: 'integer', min: 100, default: 15_000, arg: 'MS', help: 'time budget of each solve (default 15000)' },
    data: { kind: 'string', arg: 'DIR', help: 'Bitbrains and SWIM data (default ../shared/data; synthetic load and sizes without it)' },
    'no-browser': { kind: 'flag', help: 'skip the plan page in chromium' },
    out: { kind: 'string', arg: 'FILE', help: 'the report (default bench/SERVICE-SCALE.md)' },
    'report-only': { kind: 'string', arg: 'JSON', help: 'run nothing: write the report again from a results file of an earlier run' },
  },
});

interface Timeline {
  postMs: number;
  queueMs: number;
  engineMs: number;
  afterEngineMs: number;
  submitToStoredMs: number;
  /** What the client saw: from sending the POST to reading `succeeded` (polled every 200 ms). */
  observedMs: number;
  scheduledTasks: number;
  makespanSlots: number;
  gap: number | null;
  planId: string;
  /** The worker's pre-rendered charts of the plan (its job's return value); absent when it made none. */
  charts?: PrerenderOutcome;
}

interface Run {
  seed: number;
  tasks: number;
  nodes: number;
  jobs: number;
  bodyMB: number;
  inline: Timeline;
  reference: Timeline & { clusterMs: number; forecastMs: number; batchMs: number };
  storage: { documentMB: number; rowsMB: number; perPlanTablesMB: number };
  reads: Record<string, { ms: number; bytes: number; n?: number }>;
  charts: Record<string, { firstMs: number; againMs: number; bytes: number; cells: number; source: string; storedRenderMs: number | null; storedMB: number | null }>;
  page: { firstMs: number; reloadMs: number } | string;
  workerPeakMB: number | null;
  /** The machine's load average (1, 5, 15 minutes) when the run started: other work on the shared cores. */
  loadAtStart: number[];
}

const MB = (bytes: number) => Math.round((bytes / 2 ** 20) * 100) / 100;
const since = (t0: number) => Math.round(performance.now() - t0);

function caller(svc: Service, key: string) {
  return async (method: 'GET' | 'POST', url: string, body?: unknown): Promise<{ status: number; text: string; ms: number; json: () => Json; source: string | null }> => {
    const t0 = performance.now();
    const res = await fetch(svc.baseUrl + url, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    const ms = since(t0);
    return { status: res.status, text, ms, json: () => JSON.parse(text), source: res.headers.get('x-chart-source') };
  };
}

async function solveTimeline(call: ReturnType<typeof caller>, body: string): Promise<Timeline> {
  const t0 = performance.now();
  const posted = await call('POST', '/v1/solves', body);
  if (posted.status !== 202) throw new Error(`POST /v1/solves: ${posted.status} ${posted.text.slice(0, 500)}`);
  const id = posted.json().id;
  const s: Json = await waitFor(`solve ${id}`, async () => {
    const r = (await call('GET', `/v1/solves/${id}`)).json();
    return ['succeeded', 'failed', 'cancelled'].includes(r.status) ? r : undefined;
  }, 600_000, 200);
  const observedMs = since(t0);
  if (s.status !== 'succeeded' || !s.planId) throw new Error(`solve ${id} ${s.status}: ${s.error}`);
  const charts = await prerendered(id);
  const at = (x: string) => new Date(x).getTime();
  const engineMs = s.progress?.elapsedMs ?? 0;
  return {
    postMs: posted.ms,
    queueMs: at(s.startedAt) - at(s.createdAt),
    engineMs,
    afterEngineMs: at(s.finishedAt) - at(s.startedAt) - engineMs,
    submitToStoredMs: at(s.finishedAt) - at(s.createdAt) + posted.ms,
    observedMs,
    scheduledTasks: s.progress?.scheduledTasks ?? 0,
    makespanSlots: s.progress?.makespanSlots ?? 0,
    gap: s.progress?.gap ?? null,
    planId: s.planId,
    ...(charts ? { charts } : {}),
  };
}

let solvesQueue: Queue | undefined;
/**
 * What the worker says of the plan's pre-rendered charts: its solve job's return value (the job's id is the solve's),
 * which BullMQ writes just after the solve's row says succeeded (up to 10 s waited for).
 */
async function prerendered(solveId: string): Promise<PrerenderOutcome | undefined> {
  for (const t0 = Date.now(); solvesQueue && Date.now() - t0 < 10_000; await new Promise((r) => setTimeout(r, 100))) {
    const job = await solvesQueue.getJob(solveId);
    if (job?.finishedOn) return (job.returnvalue as { charts?: PrerenderOutcome } | null)?.charts;
  }
  return undefined;
}

/** Peak resident memory of a process (Linux VmHWM), MB. */
function peakMB(child: ChildProcess): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

async function reads(call: ReturnType<typeof caller>, planId: string, doc: InstanceDoc, makespan: number): Promise<Run['reads']> {
  const out: Run['reads'] = {};
  const one = async (name: string, url: string) => {
    const r = await call('GET', url);
    if (r.status !== 200) throw new Error(`GET ${url}: ${r.status} ${r.text.slice(0, 300)}`);
    out[name] = { ms: r.ms, bytes: r.text.length };
    return r.json();
  };
  await one('GET plan (whole document)', `/v1/plans/${planId}`);
  await one('GET plan summary', `/v1/plans/${planId}/summary`);
  for (const order of ['plan', 'start']) {
    const times: number[] = [];
    let bytes = 0;
    let rows = 0;
    let cursor: string | null = null;
    do {
      const r = await call('GET', `/v1/plans/${planId}/assignments?order=${order}&limit=5000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      if (r.status !== 200) throw new Error(`assignments: ${r.status} ${r.text.slice(0, 300)}`);
      const page = r.json();
      times.push(r.ms);
      bytes += r.text.length;
      rows += page.items.length;
      cursor = page.nextCursor;
    } while (cursor);
    out[`assignments, order=${order}: a page of 5,000 (median over the walk)`] = { ms: summarize(times).median!, bytes: Math.round(bytes / times.length), n: times.length };
    out[`assignments, order=${order}: every page (the whole plan)`] = { ms: times.reduce((a, b) => a + b, 0), bytes, n: rows };
  }
  const node = doc.nodes[Math.floor(doc.nodes.length / 2)].id;
  const from = Math.floor(makespan / 3);
  await one('one node, 20 slots from a third of the makespan, order=start', `/v1/plans/${planId}/assignments?node=${encodeURIComponent(node)}&from=${from}&to=${from + 20}&order=start&limit=5000`);
  await one('every node, 2 slots from a third of the makespan: first page of 5,000 by start', `/v1/plans/${planId}/assignments?from=${from}&to=${from + 2}&order=start&limit=5000`);
  return out;
}

async function charts(svc: Service, call: ReturnType<typeof caller>, planId: string): Promise<Run['charts']> {
  const out: Run['charts'] = {};
  const stored = await svc.sql<{ chart: string; render_ms: number; size: string }>(`SELECT chart, render_ms, pg_column_size(body) AS size FROM plan_charts WHERE plan_id = $1 AND format = 'svg'`, [planId]);
  for (const chart of ['gantt', 'utilisation']) {
    const first = await call('GET', `/v1/plans/${planId}/charts/${chart}.svg`);
    if (first.status !== 200) throw new Error(`${chart}.svg: ${first.status} ${first.text.slice(0, 300)}`);
    const again = await call('GET', `/v1/plans/${planId}/charts/${chart}.svg`);
    const spec = await call('GET', `/v1/plans/${planId}/charts/${chart}.json`);
    const row = stored.find((r) => r.chart === chart);
    out[chart] = { firstMs: first.ms, againMs: again.ms, bytes: first.text.length, cells: spec.json().data.values.length, source: first.source ?? '-', storedRenderMs: row ? row.render_ms : null, storedMB: row ? MB(Number(row.size)) : null };
  }
  return out;
}

async function pageLoad(svc: Service, planId: string, key: string): Promise<Run['page']> {
  const missing = chromiumMissing();
  if (missing) return `skipped: ${missing}`;
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${svc.baseUrl}/v1/plans/${planId}/page`);
    await page.fill('#key', key);
    let t0 = performance.now();
    await page.click('#key-form button[type=submit]');
    await page.waitForSelector('body[data-ready=true]', { timeout: 120_000 });
    const firstMs = since(t0);
    t0 = performance.now();
    await page.reload();
    await page.waitForSelector('body[data-ready=true]', { timeout: 120_000 });
    return { firstMs, reloadMs: since(t0) };
  } finally {
    await browser.close();
  }
}

async function oneRun(svc: Service, keys: Record<string, string>, seed: number, v: EntryArgs<typeof COMMAND.options>['values'], log: (m: string) => void): Promise<Run> {
  const dataDir = v.data ?? path.join(sharedDir(), 'data');
  const doc = serviceScaleInstance({ seed, tasks: v.tasks, nodes: v.nodes, dataDir: existsSync(dataDir) ? dataDir : undefined });
  const customer = caller(svc, keys.customer);
  const farmer = caller(svc, keys.farmer);
  const solveOptions = { strategy: v.strategy, timeBudgetMs: v['budget-ms'], seed };
  const inlineBody = JSON.stringify({ instance: doc, ...solveOptions });
  const loadAtStart = loadavg().map((x) => Math.round(x * 100) / 100);
  log(`seed ${seed}: ${doc.jobs.length} jobs, ${doc.nodes.length} nodes, inline body ${MB(inlineBody.length)} MB (${(doc.provenance as Json)?.usage ?? ''}); load ${loadAtStart.join(', ')}`);
  const worker = svc.startWorker();
  try {
    const inline = await solveTimeline(customer, inlineBody);
    log(`  inline: POST ${inline.postMs} ms, queue ${inline.queueMs}, engine ${inline.engineMs}, after ${inline.afterEngineMs}, submit to stored ${inline.submitToStoredMs} ms; ${inline.scheduledTasks} tasks, makespan ${inline.makespanSlots}`);
    const parts = instanceParts(doc);
    const cluster = await farmer('POST', '/v1/clusters', parts.cluster);
    const forecast = await farmer('POST', `/v1/clusters/${cluster.json().id}/forecasts`, parts.forecast);
    const batch = await customer('POST', '/v1/batches', parts.batch);
    for (const [what, r] of [['cluster', cluster], ['forecast', forecast], ['batch', batch]] as const) if (r.status !== 201) throw new Error(`POST ${what}: ${r.status} ${r.text.slice(0, 300)}`);
    const refTimeline = await solveTimeline(customer, JSON.stringify({ clusterId: cluster.json().id, forecastId: forecast.json().id, batchId: batch.json().id, ...solveOptions }));
    const reference = { ...refTimeline, clusterMs: cluster.ms, forecastMs: forecast.ms, batchMs: batch.ms };
    log(`  reference: cluster ${cluster.ms} ms, forecast ${forecast.ms}, batch ${batch.ms}; solve POST ${reference.postMs}, engine ${reference.engineMs}, after ${reference.afterEngineMs}, submit to stored ${reference.submitToStoredMs} ms`);
    const workerPeakMB = peakMB(worker);
    const [size] = await svc.sql<Json>(
      `SELECT pg_column_size(document) AS doc, (SELECT sum(pg_column_size(a.*)) FROM plan_assignments a WHERE a.plan_id = $1) AS rows,
              (pg_total_relation_size('plans') + pg_total_relation_size('plan_assignments'))::float8 / (SELECT count(*) FROM plans) AS per_plan
       FROM plans WHERE id = $1`,
      [inline.planId],
    );
    const storage = { documentMB: MB(Number(size.doc)), rowsMB: MB(Number(size.rows)), perPlanTablesMB: MB(Number(size.per_plan)) };
    const r = await reads(customer, inline.planId, doc, inline.makespanSlots);
    const c = await charts(svc, customer, inline.planId);
    log(`  charts: gantt ${c.gantt.firstMs} ms (${c.gantt.source}, ${c.gantt.cells} cells), utilisation ${c.utilisation.firstMs} ms (${c.utilisation.source}, ${c.utilisation.cells} cells); the worker: ${JSON.stringify(inline.charts ?? null)}`);
    const page = v['no-browser'] ? 'skipped: --no-browser' : await pageLoad(svc, reference.planId, keys.customer);
    log(`  page: ${typeof page === 'string' ? page : `${page.firstMs} ms, reload ${page.reloadMs} ms`}`);
    return { seed, tasks: v.tasks, nodes: doc.nodes.length, jobs: doc.jobs.length, bodyMB: MB(inlineBody.length), inline, reference, storage, reads: r, charts: c, page, workerPeakMB, loadAtStart };
  } finally {
    await stopChild(worker);
  }
}

/** The charts the worker stored with the plans (inline and reference solves): made on its chart thread while the plan was written. */
function storedCharts(runs: Run[], stat: (xs: number[]) => string, statMB: (xs: number[]) => string): string[] {
  const outcomes = runs.flatMap((r) => [r.inline.charts, r.reference.charts]).filter((o): o is PrerenderOutcome => o !== undefined && o.stored > 0);
  const withRow = (c: string) => runs.filter((r) => r.charts[c]?.storedRenderMs != null);
  if (outcomes.length === 0) return ['The worker stored no charts with these plans (FALLOW_CHART_PRERENDER_MIN_TASKS over their size, or pre-rendering failed).', ''];
  return [
    `## Charts the worker stored with the plan (${outcomes.length} plans: inline and reference)`,
    '',
    ...table(['what', 'value'], [
      ...['gantt', 'utilisation'].flatMap((c) => [
        [`${c}.svg: made on the worker's chart thread (spec and render, ms)`, stat(withRow(c).map((r) => r.charts[c].storedRenderMs!))],
        [`${c}.svg: stored size (TOAST-compressed, MB)`, statMB(withRow(c).map((r) => r.charts[c].storedMB!))],
      ]),
      ['both charts made, from the plan\'s result (ms)', stat(outcomes.map((o) => o.madeMs))],
      ['**the plan\'s store waited for them** after the plan was written (ms)', stat(outcomes.map((o) => o.waitedMs))],
    ]),
    '',
  ];
}

function report(runs: Run[], v: EntryArgs<typeof COMMAND.options>['values'] & { prerenderMinTasks?: string }, date: Date): string {
  const m = machineInfo();
  const stat = (xs: number[]) => {
    const s = summarize(xs);
    return s.n === 1 ? `${Math.round(s.median!)}` : `**${Math.round(s.median!)}** (${Math.round(s.min!)}-${Math.round(s.max!)})`;
  };
  const statMB = (xs: number[]) => {
    const s = summarize(xs);
    return s.n === 1 ? `${s.median}` : `**${s.median}** (${s.min}-${s.max})`;
  };
  const col = <T>(f: (r: Run) => T) => runs.map(f);
  const solveRows = (['inline', 'reference'] as const).flatMap((k) => [
    [`${k}: POST /v1/solves`, stat(col((r) => r[k].postMs))],
    [`${k}: queued until a worker took it`, stat(col((r) => r[k].queueMs))],
    [`${k}: engine (the solve thread, progress.elapsedMs)`, stat(col((r) => r[k].engineMs))],
    [`${k}: after the engine (result to the worker, plan stored)`, stat(col((r) => r[k].afterEngineMs))],
    [`${k}: **submit to stored** (POST + finishedAt - createdAt)`, stat(col((r) => r[k].submitToStoredMs))],
    [`${k}: submit to seen succeeded by the client (polled every 200 ms)`, stat(col((r) => r[k].observedMs))],
  ]);
  const readNames = Object.keys(runs[0].reads);
  const pages = runs.filter((r) => typeof r.page !== 'string').map((r) => r.page as { firstMs: number; reloadMs: number });
  const md = [
    `# The service at 100,000 tasks (issue 40 part 3)`,
    '',
    generatedLine(`npm run bench:service-scale -- --runs ${v.runs} --seed ${v.seed} --tasks ${v.tasks} --nodes ${v.nodes} --strategy ${v.strategy} --budget-ms ${v['budget-ms']}`, 'bench/service-scale.ts', m, date),
    '',
    `Instances: \`serviceScaleInstance\` (harness/scale-service.ts over harness/scale-instance.ts: the pc2 data centre replicated to ${runs[0].nodes} nodes, shifted Bitbrains load, SWIM FB-2009 job sizes), seeds ${runs.map((r) => r.seed).join(', ')}: ${runs.map((r) => `${r.jobs} jobs`).join(', ')}; the inline body is ${runs.map((r) => r.bodyMB).join(', ')} MB (FALLOW_BODY_LIMIT's default is 20mb). ` +
      `Both solves: \`${v.strategy}\`, ${v['budget-ms']} ms budget, on one worker (FALLOW_WORKER_CONCURRENCY=1, FALLOW_CHART_PRERENDER_MIN_TASKS ${v.prerenderMinTasks ?? 'default'}); the API runs in the benchmark's process, Postgres and Redis are the machine's. ` +
      `Load average (1 min) when each run started: ${runs.map((r) => (r.loadAtStart ? r.loadAtStart[0] : '?')).join(', ')}. ` +
      `Figures in ms unless said: **median** (min-max) over ${runs.length} run${runs.length > 1 ? 's' : ''}.`,
    '',
    '## Submit to stored',
    '',
    ...table(['step', 'ms'], solveRows),
    '',
    `By reference, the parts first: cluster ${stat(col((r) => r.reference.clusterMs))}, forecast ${stat(col((r) => r.reference.forecastMs))}, batch ${stat(col((r) => r.reference.batchMs))} ms. ` +
      `Plans: ${runs.map((r) => `${r.inline.scheduledTasks} tasks, makespan ${r.inline.makespanSlots} (gap ${r.inline.gap === null ? '-' : (100 * r.inline.gap).toFixed(1) + ' %'})`).join('; ')}. ` +
      `Worker peak resident memory over both solves of a run: ${statMB(col((r) => r.workerPeakMB ?? NaN).filter(Number.isFinite))} MB.`,
    '',
    '## Plan storage (the inline plan)',
    '',
    ...table(['what', 'MB'], [
      ['the plan document (jsonb as stored, compressed)', statMB(col((r) => r.storage.documentMB))],
      ['its assignment rows (plan_assignments, row data)', statMB(col((r) => r.storage.rowsMB))],
      ['plans + plan_assignments with indexes and TOAST, per plan stored', statMB(col((r) => r.storage.perPlanTablesMB))],
    ]),
    '',
    '## Reading the plan',
    '',
    ...table(['request', 'ms', 'bytes'], readNames.map((n) => [n, stat(col((r) => r.reads[n].ms)), String(runs[0].reads[n].bytes)])),
    '',
    '## Charts (GET .svg with a customer key)',
    '',
    ...table(
      ['chart', 'first request', 'served from (X-Chart-Source)', 'again (cached)', 'SVG bytes', 'cells'],
      ['gantt', 'utilisation'].map((c) => [c, stat(col((r) => r.charts[c].firstMs)), [...new Set(col((r) => r.charts[c].source ?? '-'))].join(', '), stat(col((r) => r.charts[c].againMs)), String(runs[0].charts[c].bytes), String(runs[0].charts[c].cells)]),
    ),
    '',
    ...storedCharts(runs, stat, statMB),
    '## The plan page (headless chromium, the reference plan: the API has served none of its charts before this visit)',
    '',
    pages.length
      ? table(['load', 'ms'], [['from the key submitted to every chart in (data-ready)', stat(pages.map((p) => p.firstMs))], ['reload (charts cached)', stat(pages.map((p) => p.reloadMs))]]).join('\n')
      : `not measured: ${runs[0].page}`,
    '',
  ];
  return md.join('\n');
}

async function main({ values }: EntryArgs<typeof COMMAND.options>): Promise<number> {
  const log = (msg: string) => process.stderr.write(msg + '\n');
  let v: typeof values & { prerenderMinTasks?: string } = values;
  let date = new Date();
  let runs: Run[] = [];
  let json: string;
  if (values['report-only']) {
    json = path.resolve(values['report-only']);
    const saved = JSON.parse(readFileSync(json, 'utf8'));
    (v = { ...saved.options, out: values.out }), (date = new Date(saved.date)), (runs = saved.runs);
  } else {
    v = { ...v, prerenderMinTasks: process.env.FALLOW_CHART_PRERENDER_MIN_TASKS }; // the worker's (the child inherits it)
    const svc = await startService({ logLevel: 'warn' });
    solvesQueue = new Queue('solves', { connection: redisOptions(svc.config.redisUrl) as ConnectionOptions, prefix: svc.config.queuePrefix });
    try {
      const t = await svc.tenant('bench-scale', ['farmer', 'customer']);
      for (let i = 0; i < v.runs; i++) runs.push(await oneRun(svc, t.keys, v.seed + i, v, log));
    } finally {
      await solvesQueue.close();
      await svc.close();
    }
    json = writeJson(resultsFile(`service-scale-${timestamp(date)}.json`), { date: date.toISOString(), machine: machineInfo(), options: v, runs });
  }
  const file = v.out ?? benchFile('SERVICE-SCALE.md');
  const hand = existsSync(file) ? readFileSync(file, 'utf8').split('<!-- notes -->')[1] : undefined;
  writeFileSync(file, report(runs, v, date) + `\nRaw figures: ${path.relative(path.dirname(file), json)}.\n\n<!-- notes -->${hand ?? '\n'}`);
  log(`wrote ${file} and ${json}`);
  return 0;
}

if (require.main === module) runEntry(COMMAND, main);
