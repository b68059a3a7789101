/**
 * The runtime history at scale, against the real service and Postgres (issue 23's speed target): a
 * customer's history grows to 1,000,000 execution events (500,000 tasks of 1,000 jobs over 10 inline solves,
 * 100 map and 100 reduce classes, posted 10,000 events per request as a farmer would), then the durations
 * of a 1,000-stage batch (500 jobs of 2 stages) are predicted: GET /v1/batches/{id}/predictions, 15 times.
 * Target: under 1 s. Also the time of each 10,000-event POST as the history grows (each one also rebuilds
 * its jobs' stage_history rows in the same transaction).
 *
 *   npm run bench:predict-service            writes bench/results/predict-service-<date>.json and a section of bench/PREDICT.md
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { startService } from '../harness/service';
import { machineInfo } from './lib/machine';
import { command, runEntry } from './lib/cli';
import { ranOn } from './lib/markdown';
import { benchFile } from './lib/paths';
import { resultsFile, writeJson } from './lib/results';

const COMMAND = command({
  name: 'bench:predict-service',
  usage: 'usage: npm run bench:predict-service     (writes bench/results/predict-service-<date>.json and a section of bench/PREDICT.md)',
  options: {},
});

const SOLVES = 10;
const JOBS_PER_SOLVE = 100;
const MAPS = 400;
const REDUCES = 100;
const PER_REQUEST = 10_000;
const START = Date.parse('2030-01-01T00:00:00Z');

function instance(s: number) {
  return {
    format: 'fallow.instance/v1',
    name: `history-${s}`,
    horizon: { slots: 10, slotSeconds: 60 },
    metrics: ['cpu'],
    nodes: [{ id: 'n1', capacity: { cpu: 64 } }],
    jobs: Array.from({ length: JOBS_PER_SOLVE }, (_, j) => ({
      id: `j${j}`,
      mapClass: `M${(s * JOBS_PER_SOLVE + j) % 100}`,
      reduceClass: `R${(s * JOBS_PER_SOLVE + j) % 100}`,
      stages: [
        { id: 'map', tasks: MAPS, demand: { cpu: 1 }, durationSeconds: 10, inputMB: 128 },
        { id: 'red', tasks: REDUCES, demand: { cpu: 1 }, durationSeconds: 10, after: ['map'] },
      ],
    })),
  };
}

/** Every event of one solve: per task a started and a finished event with sizes, locality and phases. */
function* events(solveId: string, s: number): Generator<object> {
  for (let j = 0; j < JOBS_PER_SOLVE; j++) {
    const base = START + (s * JOBS_PER_SOLVE + j) * 600_000;
    const at = (ms: number) => new Date(base + ms).toISOString();
    for (let t = 0; t < MAPS; t++) {
      const id = `${s}-${j}-m${t}`;
      yield { id: `${id}s`, solveId, job: `j${j}`, stage: 'map', task: t, node: 'n1', type: 'started', at: at(t * 10) };
      yield { id: `${id}f`, solveId, job: `j${j}`, stage: 'map', task: t, node: 'n1', type: 'finished', at: at(t * 10 + 8000 + (t % 7) * 500), inputBytes: 128e6, outputBytes: 64e6, locality: t % 10 ? 'node' : 'remote' };
    }
    for (let t = 0; t < REDUCES; t++) {
      const id = `${s}-${j}-r${t}`;
      const start = 20_000 + t * 10;
      yield { id: `${id}s`, solveId, job: `j${j}`, stage: 'red', task: t, node: 'n1', type: 'started', at: at(start) };
      yield { id: `${id}f`, solveId, job: `j${j}`, stage: 'red', task: t, node: 'n1', type: 'finished', at: at(start + 9000), inputBytes: 256e6, shuffleEndAt: at(start + 4000), mergeEndAt: at(start + 5000) };
    }
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

async function main(): Promise<void> {
  const svc = await startService();
  try {
    const customer = await svc.tenant('big', ['customer']);
    const key = customer.keys.customer;
    const post = async (p: string, body: unknown) => {
      const r = await fetch(`${svc.baseUrl}${p}`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      if (r.status >= 300) throw new Error(`${p}: ${r.status} ${await r.text()}`);
      return r.json() as Promise<{ id: string }>;
    };
    const postMs: number[] = [];
    let total = 0;
    for (let s = 0; s < SOLVES; s++) {
      const { id } = await post('/v1/solves', { instance: instance(s), strategy: 'rffd', timeBudgetMs: 100 });
      let chunk: object[] = [];
      const flush = async () => {
        const t0 = performance.now();
        await post('/v1/executions/events', { events: chunk });
        postMs.push(performance.now() - t0);
        total += chunk.length;
        chunk = [];
      };
      for (const e of events(id, s)) {
        chunk.push(e);
        if (chunk.length === PER_REQUEST) await flush();
      }
      if (chunk.length) await flush();
      console.log(`${total} events; last POST ${postMs[postMs.length - 1].toFixed(0)} ms`);
    }
    const stored = Number((await svc.sql<{ n: number }>('SELECT count(*)::int AS n FROM execution_events'))[0].n);
    const stages = Number((await svc.sql<{ n: number }>('SELECT count(*)::int AS n FROM stage_history'))[0].n);
    // A batch of 1,000 stages: 500 jobs, each a map and a reduce stage of the history's classes.
    const batch = await post('/v1/batches', {
      name: 'big',
      jobs: Array.from({ length: 500 }, (_, j) => ({
        id: `b${j}`,
        mapClass: `M${j % 100}`,
        reduceClass: `R${j % 100}`,
        stages: [{ id: 'map', tasks: 10, demand: { cpu: 1 }, inputMB: 128 }, { id: 'red', tasks: 2, demand: { cpu: 1 }, after: ['map'] }],
      })),
    });
    const predictMs: number[] = [];
    let predicted = 0;
    for (let r = 0; r < 15; r++) {
      const t0 = performance.now();
      const res = await fetch(`${svc.baseUrl}/v1/batches/${batch.id}/predictions?predictor=auto`, { headers: { Authorization: `Bearer ${key}` } });
      const body = (await res.json()) as { predictions: unknown[] };
      predictMs.push(performance.now() - t0);
      predicted = body.predictions.length;
    }
    const result = {
      date: new Date().toISOString(),
      machine: machineInfo(),
      events: stored,
      stageHistoryRows: stages,
      postEventsMs: { requests: postMs.length, perRequest: PER_REQUEST, median: median(postMs), p90: pct(postMs, 0.9), max: Math.max(...postMs), first: postMs[0], last: postMs[postMs.length - 1] },
      predictBatchMs: { stages: 1000, predicted, runs: predictMs.length, median: median(predictMs), min: Math.min(...predictMs), max: Math.max(...predictMs) },
    };
    console.log(JSON.stringify(result, null, 1));
    writeJson(resultsFile(`predict-service-${result.date.slice(0, 10)}.json`), result, { finalNewline: false });
    writeSection(result);
  } finally {
    await svc.close();
  }
}

const START_MARK = '<!-- predict-service:start (written by npm run bench:predict-service) -->';
const END_MARK = '<!-- predict-service:end -->';

function writeSection(r: { date: string; machine: ReturnType<typeof machineInfo>; events: number; stageHistoryRows: number; postEventsMs: Record<string, number>; predictBatchMs: Record<string, number> }): void {
  const file = benchFile('PREDICT.md');
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    text = '# Runtime predictors\n';
  }
  const f = (x: number) => x.toFixed(0);
  const section = [
    START_MARK,
    '## At scale: 1,000,000 events, a 1,000-stage batch (`npm run bench:predict-service`)',
    '',
    `${ranOn(r.date, r.machine)}, real Postgres through the API.`,
    '',
    `- History: ${r.events.toLocaleString('en')} execution events of ${(r.events / 2).toLocaleString('en')} tasks, summed into ${r.stageHistoryRows.toLocaleString('en')} stage_history rows.`,
    `- POST of ${r.postEventsMs.perRequest.toLocaleString('en')} events (validation, insert, stage_history rebuilt for their jobs in the same transaction), ${r.postEventsMs.requests} requests: median ${f(r.postEventsMs.median)} ms, p90 ${f(r.postEventsMs.p90)} ms, max ${f(r.postEventsMs.max)} ms; first ${f(r.postEventsMs.first)} ms, last ${f(r.postEventsMs.last)} ms.`,
    `- Predicting the durations of a 1,000-stage batch (GET /v1/batches/{id}/predictions, ${r.predictBatchMs.predicted} stages predicted), ${r.predictBatchMs.runs} runs: median ${f(r.predictBatchMs.median)} ms (min ${f(r.predictBatchMs.min)}, max ${f(r.predictBatchMs.max)}). Target: under 1,000 ms.`,
    END_MARK,
  ].join('\n');
  const at = text.indexOf(START_MARK);
  const end = text.indexOf(END_MARK);
  text = at >= 0 && end > at ? text.slice(0, at) + section + text.slice(end + END_MARK.length) : `${text.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, text);
}

if (require.main === module) runEntry(COMMAND, main);
