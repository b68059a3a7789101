/**
 * Not a test: writes the README's images of the charts (npm run screenshots).
 *   docs/images/plan-page.png   the plan page of a solved and simulated plan, in headless chromium, against the real service
 *   docs/images/gantt-10000.png the Gantt of a 10,000-task plan on 100 nodes (aggregated), rendered offline
 * Needs Postgres and Redis as the service tests do (the npm script runs scripts/ensure-services.sh first).
 * Not a benchmark, but like them a program run from a checkout on the shared harness (it lived in harness/,
 * which holds only what tests and benchmarks share).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { ganttSpec } from '../src/charts/gantt';
import { renderSvg } from '../src/charts/render';
import { loadInstance } from '../src/engine/model/model';
import { solve } from '../src/engine/solve';
import { launchChromium, openPlanPage, pngStats } from '../harness/browser';
import { largeInstance } from '../harness/load-speed';
import { Service, startService, waitFor } from '../harness/service';
import { command, runEntry } from './lib/cli';

const COMMAND = command({ name: 'screenshots', usage: "usage: npm run screenshots     (writes docs/images/plan-page.png and gantt-10000.png)", options: {} });

const OUT = path.resolve(__dirname, '../../docs/images');
const SLOTS = 48;
const S = 300;

/** A day-shaped regular load: low at night, a peak in the middle of the window, per node a little different. */
const load = (base: number, k: number) => Array.from({ length: SLOTS }, (_, t) => Math.round(1000 * Math.min(0.95, base + 0.3 * Math.sin((Math.PI * (t + 3 * k)) / SLOTS) ** 2)) / 1000);
const NODES = Array.from({ length: 6 }, (_, k) => ({ id: `n0${k + 1}`, capacity: { cpu: k < 3 ? 8 : 16, ram: k < 3 ? 32 : 64 }, speed: k < 3 ? 1 : 2, rack: `r${(k % 2) + 1}` }));
const FORECAST = Object.fromEntries(NODES.map((n, k) => [n.id, { cpu: load(0.15, k), ram: load(0.1, k) }]));
const ACTUAL = Object.fromEntries(NODES.map((n, k) => [n.id, { cpu: load(0.15, k).map((v, t) => (t >= 3 && t < 10 && k % 3 === 0 ? 0.97 : v)), ram: load(0.1, k) }]));
const mapReduce = (id: string, maps: number, reduces: number, seconds: number, deadlineSlot: number, onTime: number) => ({
  id,
  deadlineSlot,
  revenue: { onTime, late: -Math.round(onTime / 5) },
  stages: [
    { id: 'map', tasks: maps, demand: { cpu: 1, ram: 2 }, durationSeconds: seconds },
    { id: 'reduce', tasks: reduces, after: ['map'], demand: { cpu: 2, ram: 4 }, durationSeconds: seconds / 2 },
  ],
});
const JOBS = [
  mapReduce('wordcount', 24, 4, 900, 20, 400),
  mapReduce('sessionize', 16, 4, 1200, 30, 300),
  mapReduce('pagerank', 30, 6, 600, 40, 500),
  mapReduce('etl-nightly', 20, 2, 1500, 46, 250),
  mapReduce('join-orders', 12, 3, 900, 24, 200),
  mapReduce('sort-logs', 18, 2, 600, 36, 150),
  { id: 'giant-matrix', revenue: { onTime: 900, late: 0 }, stages: [{ id: 'map', tasks: 2, demand: { cpu: 48, ram: 8 }, durationSeconds: 600 }] },
];

async function planPage(svc: Service): Promise<void> {
  const op = await svc.tenant('demo', ['farmer', 'customer']);
  const farmer = svc.client(op.keys.farmer);
  const customer = svc.client(op.keys.customer);
  const cluster = await farmer.POST('/v1/clusters', { body: { name: 'north', metrics: ['cpu', 'ram'], nodes: NODES } as never });
  const forecast = await farmer.POST('/v1/clusters/{clusterId}/forecasts', { params: { path: { clusterId: cluster.data!.id } }, body: { slotSeconds: S, slots: SLOTS, quantile: 0.9, usage: FORECAST } });
  const batch = await customer.POST('/v1/batches', { body: { name: 'nightly', jobs: JOBS as never } });
  const solve = await customer.POST('/v1/solves', { body: { clusterId: cluster.data!.id, forecastId: forecast.data!.id, batchId: batch.data!.id, strategy: 'ls', timeBudgetMs: 3000, objective: 'revenue' } });
  if (!solve.data) throw new Error(`solve: ${JSON.stringify(solve.error)}`);
  const solved = await waitFor('the solve', async () => {
    const r = await customer.GET('/v1/solves/{id}', { params: { path: { id: solve.data!.id } } });
    return r.data && ['succeeded', 'failed'].includes(r.data.status) ? r.data : undefined;
  }, 60_000);
  if (!solved.planId) throw new Error(`the solve ${solved.status}: ${solved.error}`);
  const sim = await customer.POST('/v1/plans/{planId}/simulations', { params: { path: { planId: solved.planId } }, body: { actualUsage: ACTUAL, qos: 'cuckoo', seed: 1 } });
  await waitFor('the simulation', async () => {
    const r = await customer.GET('/v1/simulations/{id}', { params: { path: { id: sim.data!.id } } });
    return r.data && ['succeeded', 'failed'].includes(r.data.status) ? r.data : undefined;
  }, 60_000);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openPlanPage(page, svc.baseUrl, solved.planId, op.keys.customer);
    const file = path.join(OUT, 'plan-page.png');
    const stats = pngStats(await page.screenshot({ path: file, fullPage: true }));
    console.log(`${file}: ${stats.width}x${stats.height}, ${stats.colours} colours`);
  } finally {
    await browser.close();
  }
}

async function largeGantt(): Promise<void> {
  const model = loadInstance(largeInstance(10_000, 100, 1_000, 1));
  const plan = await solve(model, { strategy: 'rffd', timeBudgetMs: 2000, seed: 1 });
  const svg = await renderSvg(ganttSpec(model, plan));
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.setContent(`<body style="margin:0;background:white">${svg}</body>`);
    const file = path.join(OUT, 'gantt-10000.png');
    await page.locator('svg').first().screenshot({ path: file });
    console.log(file);
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const svc = await startService();
  try {
    svc.startWorker();
    await planPage(svc);
  } finally {
    await svc.close();
  }
  await largeGantt();
}

if (require.main === module) runEntry(COMMAND, main);
