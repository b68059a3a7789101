/**
 * Charts under load (npm run bench:charts-load): another tenant's latency while the API makes many charts at once.
 * Through the API and a worker against the real Postgres and Redis: --plans plans of a --tasks-task instance
 * (harness/load-speed.ts largeInstance on 100 nodes, 1,000 slots) are solved by tenant A (rffd, 1 s); then A asks
 * for every chart of every plan at once (gantt and utilisation, SVG and JSON: --plans x 4 charts, each made once),
 * while tenant B reads its own small plan (GET /v1/plans/{id}) back to back. Reports B's latency during the burst
 * and how long the burst took, with the machine and the date. Writes bench/CHARTS-LOAD.md.
 */
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { PLAN_CHARTS } from '../src/charts/charts';
import { largeInstance } from '../harness/load-speed';
import { startService } from '../harness/service';
import { solvedPlan } from './charts/solved-plan';
import { command, EntryArgs, runEntry } from './lib/cli';
import { generatedLine } from './lib/markdown';
import { machineInfo } from './lib/machine';
import { benchFile } from './lib/paths';
import { summarize } from './lib/stats';

const COMMAND = command({
  name: 'bench:charts-load',
  usage: 'usage: npm run bench:charts-load -- [options]     (writes bench/CHARTS-LOAD.md)',
  options: {
    plans: { kind: 'integer', min: 1, default: 5, arg: 'N', help: "tenant A's plans, 4 charts each (default 5)" },
    tasks: { kind: 'integer', min: 100, default: 12000, arg: 'N', help: 'tasks of each plan (default 12000; a multiple of 100)' },
    label: { kind: 'string', default: '', arg: 'TEXT', help: "added to the report's title" },
  },
});

async function main({ values }: EntryArgs<typeof COMMAND.options>): Promise<number> {
  const { plans, tasks } = values;
  const log = (m: string) => process.stderr.write(m + '\n');
  // No rate limit: B reads back to back, faster than a key's default share of requests.
  const svc = await startService({ bodyLimit: '50mb', rateLimitPerMinute: 0 });
  try {
    svc.startWorker();
    const a = await svc.tenant('bench-charts-a', ['customer']);
    const b = await svc.tenant('bench-charts-b', ['customer']);
    const clientA = svc.client(a.keys.customer);
    const instance = largeInstance(tasks, 100, 1000, 1);
    const planIds: string[] = [];
    for (let seed = 1; seed <= plans; seed++) planIds.push(await solvedPlan(clientA, instance, seed));
    const small = await solvedPlan(svc.client(b.keys.customer), largeInstance(50, 4, 100, 1), 1);
    log(`${plans} plans of ${tasks} tasks solved; B's plan ${small}`);
    const get = async (url: string, key: string) => {
      const res = await fetch(`${svc.baseUrl}${url}`, { headers: { authorization: `Bearer ${key}` } });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.slice(0, 200)}`);
      return body.length;
    };
    await get(`/v1/plans/${small}`, b.keys.customer); // warm
    const quiet: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      await get(`/v1/plans/${small}`, b.keys.customer);
      quiet.push(performance.now() - t0);
    }
    const during: number[] = [];
    let busy = true;
    const reader = (async () => {
      while (busy) {
        const t0 = performance.now();
        await get(`/v1/plans/${small}`, b.keys.customer);
        during.push(performance.now() - t0);
      }
    })();
    const t0 = performance.now();
    const urls = planIds.flatMap((id) => PLAN_CHARTS.flatMap((c) => [`/v1/plans/${id}/charts/${c}.svg`, `/v1/plans/${id}/charts/${c}.json`]));
    const charts = await Promise.all(urls.map(async (u) => {
      const s = performance.now();
      await get(u, a.keys.customer);
      return performance.now() - s;
    })).finally(() => (busy = false));
    const burst = performance.now() - t0;
    await reader;
    const m = machineInfo();
    const q = summarize(quiet);
    const d = summarize(during);
    const c = summarize(charts);
    const label = values.label ? ` (${values.label})` : '';
    const md = `# Charts under load${label}

${generatedLine('npm run bench:charts-load', 'bench/charts-load.ts', m)}

Tenant A asks at once for ${urls.length} charts (gantt and utilisation, SVG and JSON, of ${plans} plans of ${tasks.toLocaleString('en')} tasks on 100 nodes:
\`rffd\` on harness/load-speed.ts \`largeInstance(${tasks}, 100, 1000)\`), none made before; meanwhile tenant B reads its own small plan,
\`GET /v1/plans/{id}\`, back to back. The API runs in the benchmark's process (harness/service.ts), Postgres and Redis local.

| what | n | median ms | min | p90 | max |
|---|---|---|---|---|---|
| B's GET, quiet | ${q.n} | **${q.median}** | ${q.min} | ${q.p90} | ${q.max} |
| B's GET during A's burst | ${d.n} | **${d.median}** | ${d.min} | ${d.p90} | ${d.max} |
| each of A's charts | ${c.n} | **${c.median}** | ${c.min} | ${c.p90} | ${c.max} |

A's burst took ${Math.round(burst)} ms in all.
`;
    const file = benchFile('CHARTS-LOAD.md');
    writeFileSync(file, md);
    process.stdout.write(md);
    log(`wrote ${file}`);
    return 0;
  } finally {
    await svc.close();
  }
}

if (require.main === module) runEntry(COMMAND, main);
