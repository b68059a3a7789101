/**
 * What requests without an API key cost the API (issue 35): N concurrent keyless POST /v1/batches, each
 * sending a valid JSON batch of M MB in full, against an API process of its own; meanwhile /health is asked
 * over and over. Reports the API's resident memory (VmRSS, sampled every 25 ms) before and at its peak, the
 * /health latencies during the burst, and what each upload got back.
 *
 *   npm run build && node dist/bench/keyless-bodies.js [--api dist/src/main.js] [--requests 10] [--mb 19]
 *
 * --api runs another build's API (an older commit's dist/src/main.js, to measure before a change). The API
 * gets a fresh migrated database on DATABASE_URL's server (dropped afterwards) and a private queue prefix on
 * REDIS_URL. Linux only (reads /proc/<pid>/status). Prints one JSON object.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { AddressInfo, createServer } from 'node:net';
import { request } from 'node:http';
import path from 'node:path';
import IORedis from 'ioredis';
import { Client } from 'pg';
import { migrate } from '../src/ops/main';
import { stopChild } from '../harness/service';
import { command, EntryArgs, runEntry } from './lib/cli';

const COMMAND = command({
  name: 'bench/keyless-bodies',
  usage: 'usage: node dist/bench/keyless-bodies.js [options]       (after npm run build; prints one JSON object)',
  options: {
    api: { kind: 'string', default: path.resolve(__dirname, '../src/main.js'), arg: 'FILE', help: "the API to run (default this build's dist/src/main.js)" },
    requests: { kind: 'integer', min: 1, default: 10, arg: 'N', help: 'concurrent keyless uploads (default 10)' },
    mb: { kind: 'number', above: 0, default: 19, arg: 'MB', help: "each upload's size (default 19)" },
  },
});
const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/** A batch of many small jobs, about `mb` MB of JSON: what parsing turns into the most objects per byte. */
function batchBody(mb: number): Buffer {
  const job = (i: number) => `{"id":"j${i}","stages":[{"id":"map","tasks":4,"demand":{"cpu":1,"ram":2},"durationSeconds":600}]}`;
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < mb * 1e6; i++) {
    const s = job(i);
    parts.push(s);
    size += s.length + 1;
  }
  return Buffer.from(`{"name":"keyless","jobs":[${parts.join(',')}]}`);
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function health(base: string): Promise<{ ms: number; status: number }> {
  const t = performance.now();
  try {
    const r = await fetch(`${base}/health`);
    await r.arrayBuffer();
    return { ms: performance.now() - t, status: r.status };
  } catch {
    return { ms: performance.now() - t, status: 0 };
  }
}

/** Sends the whole body (the client does not stop when answered early); resolves with the status and when it came. */
function upload(base: string, body: Buffer): Promise<{ status: number; answeredMs: number; error?: string }> {
  const u = new URL(`${base}/v1/batches`);
  const t = performance.now();
  return new Promise((resolve) => {
    let status = 0;
    let answeredMs = 0;
    const req = request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(body.length) } }, (res) => {
      status = res.statusCode ?? 0;
      answeredMs = performance.now() - t;
      res.resume();
      res.on('end', () => resolve({ status, answeredMs }));
    });
    req.on('error', (e) => resolve({ status, answeredMs, error: status ? undefined : (e as NodeJS.ErrnoException).code }));
    req.end(body);
  });
}

async function main({ values }: EntryArgs<typeof COMMAND.options>): Promise<void> {
  const REQUESTS = values.requests;
  const BODY_MB = values.mb;
  const db = `fallow_bench_keyless_${randomBytes(3).toString('hex')}`;
  const dbUrl = Object.assign(new URL(SERVER_URL), { pathname: `/${db}` }).toString();
  const prefix = `fallow_bench_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${db}"`);
  let api: ChildProcess | undefined;
  try {
    await migrate(dbUrl);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    api = spawn(process.execPath, [values.api], {
      env: { ...process.env, PORT: String(port), DATABASE_URL: dbUrl, REDIS_URL, FALLOW_QUEUE_PREFIX: prefix, FALLOW_BOOTSTRAP_KEY: `op_${randomBytes(16).toString('hex')}`, FALLOW_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    for (let i = 0; (await health(base)).status !== 200; i++) {
      if (i > 300) throw new Error('the API did not answer /health within 30 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    const healthIdle: number[] = [];
    for (let i = 0; i < 20; i++) healthIdle.push((await health(base)).ms); // also warms the API
    const body = batchBody(BODY_MB);
    const pid = api.pid!;
    const rssBefore = rssMb(pid);
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 25);
    let burst = true;
    const healthDuring: number[] = [];
    const poller = (async () => {
      while (burst) healthDuring.push((await health(base)).ms);
    })();
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: REQUESTS }, () => upload(base, body)));
    const burstMs = performance.now() - started;
    burst = false;
    await poller;
    await new Promise((r) => setTimeout(r, 500));
    clearInterval(sampler);
    const round = (x: number) => Math.round(x);
    const p50 = (xs: number[]) => round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0);
    console.log(
      JSON.stringify(
        {
          api: values.api,
          requests: REQUESTS,
          bodyBytes: body.length,
          rssBeforeMb: round(rssBefore),
          rssPeakMb: round(peak),
          rssAfterMb: round(rssMb(pid)),
          burstMs: round(burstMs),
          healthIdleP50Ms: p50(healthIdle),
          healthDuring: { count: healthDuring.length, p50Ms: p50(healthDuring), maxMs: round(Math.max(0, ...healthDuring)) },
          statuses: answers.map((a) => a.status || a.error),
          answeredMs: answers.map((a) => round(a.answeredMs)),
        },
        null,
        1,
      ).replace(/\[\n\s+([^\]{}]*?)\n\s+\]/g, (_m, inner: string) => `[${inner.replace(/\n\s+/g, ' ')}]`), // arrays on one line
    );
  } finally {
    if (api) await stopChild(api);
    await admin.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
    await admin.end();
    const redis = new IORedis(REDIS_URL);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  }
}

if (require.main === module) runEntry(COMMAND, main);
