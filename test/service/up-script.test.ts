/**
 * `npm run up` (scripts/up.sh) as a new user meets it, against the shared Postgres and Redis with a private
 * database, queue prefix, state dir (FALLOW_STATE_DIR) and port: it must end with the banner and demo keys
 * that work; a second clone (no kept keys, the demo tenant already there) gets new working keys without
 * revoking the first clone's; --new-demo-keys revokes them all; a second `up` on a busy port or from the same
 * state dir says so at once.
 */
import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import IORedis from 'ioredis';
import { Client } from 'pg';
import { freePort, withDatabase } from '../../harness/service';

const ROOT = path.resolve(__dirname, '../../..');
const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const BANNER_WITHIN_MS = 300_000; // a cold start on a loaded 2-core machine

interface Up {
  child: ChildProcess;
  out: () => string;
  exited: Promise<number | null>;
}

describe('npm run up (scripts/up.sh)', () => {
  const dbName = `fallow_t_up_${process.pid}_${randomBytes(3).toString('hex')}`;
  const queuePrefix = `fallow_t_up_${randomBytes(4).toString('hex')}`;
  const stateDir = mkdtempSync(path.join(tmpdir(), 'fallow-up-state-'));
  let port = 0;
  const running = new Set<ChildProcess>();

  const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
    const e: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: withDatabase(SERVER_URL, dbName),
      REDIS_URL,
      PORT: String(port),
      FALLOW_STATE_DIR: stateDir,
      FALLOW_QUEUE_PREFIX: queuePrefix,
      FALLOW_NO_INSTALL: '1',
      FALLOW_WORKER_CONCURRENCY: '1',
      ...extra,
    };
    delete e.FALLOW_BOOTSTRAP_KEY; // up generates the operator key into the state dir
    delete e.FALLOW_KEY_SECRET; // the development secret, as a new user has it (the banner notes it)
    return e;
  };

  function startUp(args: string[] = [], extra: Record<string, string> = {}): Up {
    const child = spawn('bash', ['scripts/up.sh', ...args], { cwd: ROOT, env: env(extra), stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => (running.delete(child), resolve(code))));
    return { child, out: () => out, exited };
  }

  /** Stops every up still running (a failed test's) the way a user does, so its API and worker stop too. */
  async function stopAll(): Promise<void> {
    await Promise.all(
      [...running].map((child) => {
        const gone = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGINT');
        return gone;
      }),
    );
  }

  /** Waits for the banner's last line; the up's whole output if it exits first or the time is up. */
  async function banner(up: Up): Promise<{ farmer: string; customer: string; operator: string; ms: number }> {
    const started = Date.now();
    let exited = false;
    void up.exited.then(() => (exited = true));
    while (!up.out().includes('Ctrl-C stops both.')) {
      if (exited) assert.fail(`up exited before the banner:\n${up.out()}`);
      if (Date.now() - started > BANNER_WITHIN_MS) assert.fail(`no banner within ${BANNER_WITHIN_MS} ms:\n${up.out()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const key = (label: string) => new RegExp(`^  ${label} key +(\\S+)`, 'm').exec(up.out())?.[1] ?? assert.fail(`no ${label} key in the banner:\n${up.out()}`);
    return { farmer: key('farmer'), customer: key('customer'), operator: key('operator'), ms: Date.now() - started };
  }

  async function stop(up: Up): Promise<void> {
    up.child.kill('SIGINT');
    assert.equal(await up.exited, 0, `up stops cleanly on SIGINT:\n${up.out()}`);
    assert.match(up.out(), /up: stopped/);
  }

  async function status(key: string, route: string): Promise<number> {
    return (await fetch(`http://127.0.0.1:${port}${route}`, { headers: { authorization: `Bearer ${key}` } })).status;
  }
  const farmerStatus = (key: string) => status(key, '/v1/clusters');
  const customerStatus = (key: string) => status(key, '/v1/batches');

  before(async () => {
    port = await freePort();
  });

  afterEach(stopAll);

  after(async () => {
    await stopAll();
    rmSync(stateDir, { recursive: true, force: true });
    const redis = new IORedis(REDIS_URL);
    const keys = await redis.keys(`${queuePrefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
    const admin = new Client({ connectionString: SERVER_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await admin.end();
  });

  let first: { farmer: string; customer: string };
  let second: { farmer: string; customer: string };

  it('ends with a framed banner whose farmer and customer keys work, and a second up says at once that the port is taken', async (t) => {
    const up = startUp();
    const shown = await banner(up);
    t.diagnostic(`banner after ${shown.ms} ms (fresh database)`);
    first = { farmer: shown.farmer, customer: shown.customer };
    assert.equal(await farmerStatus(shown.farmer), 200);
    assert.equal(await customerStatus(shown.customer), 200);
    assert.equal(await farmerStatus('flw_not-a-key'), 401);
    const out = up.out();
    assert.match(out, /^={20,}\n {2}Fallow is up/m, 'a ruled heading, no colours when stdout is not a terminal');
    assert.doesNotMatch(out, /\x1b\[/, 'no escape sequences on a pipe');
    assert.doesNotMatch(out, /^\{"level"/m, 'the JSON logs go to the state dir, not here');
    assert.match(out, /^ {2}note +FALLOW_KEY_SECRET is unset/m, 'the key-secret warning is one note line of its own');
    const beforeBanner = out.slice(0, out.indexOf('Fallow is up')).trim().split('\n');
    assert.ok(beforeBanner.length <= 12, `a few lines before the banner, got ${beforeBanner.length}:\n${out}`);

    // the same port: answered before any build or database work
    const otherState = mkdtempSync(path.join(tmpdir(), 'fallow-up-state-'));
    t.after(() => rmSync(otherState, { recursive: true, force: true }));
    const busy = startUp([], { FALLOW_STATE_DIR: otherState });
    const started = Date.now();
    assert.equal(await busy.exited, 1);
    assert.match(busy.out(), new RegExp(`^up: port ${port} is already in use .*PORT=\\d+ npm run up$`, 'm'));
    assert.ok(Date.now() - started < 10_000, `answered in ${Date.now() - started} ms`);
    // the same state dir (this checkout) on another port: the lock says another up runs
    const twice = startUp([], { PORT: String(await freePort()) });
    assert.equal(await twice.exited, 1);
    assert.match(twice.out(), /^up: another 'npm run up' \(pid \d+\) is running from this checkout/m);
    await stop(up);
  });

  it('shows the kept keys again when nothing changed', async (t) => {
    const up = startUp();
    const shown = await banner(up);
    t.diagnostic(`banner after ${shown.ms} ms (nothing changed)`);
    assert.deepEqual({ farmer: shown.farmer, customer: shown.customer }, first);
    assert.match(up.out(), /^build: dist\/ is up to date with the sources$/m, 'no second build');
    await stop(up);
  });

  it('a second clone (the demo tenant exists, no kept keys) gets new working keys, and the first clone keeps its own', async () => {
    rmSync(path.join(stateDir, 'demo-keys'));
    const up = startUp();
    const shown = await banner(up);
    assert.notEqual(shown.farmer, first.farmer);
    assert.notEqual(shown.customer, first.customer);
    assert.equal(await farmerStatus(shown.farmer), 200);
    assert.equal(await customerStatus(shown.customer), 200);
    assert.equal(await farmerStatus(first.farmer), 200, "the other clone's farmer key still works");
    assert.equal(await customerStatus(first.customer), 200, "the other clone's customer key still works");
    second = { farmer: shown.farmer, customer: shown.customer };
    await stop(up);
  });

  it('--new-demo-keys revokes every demo key and shows new ones that work', async () => {
    const up = startUp(['--new-demo-keys']);
    const shown = await banner(up);
    assert.match(up.out(), /note +revoked 4 earlier demo keys/);
    assert.equal(await farmerStatus(shown.farmer), 200);
    assert.equal(await customerStatus(shown.customer), 200);
    assert.equal(await farmerStatus(first.farmer), 401);
    assert.equal(await customerStatus(first.customer), 401);
    assert.equal(await farmerStatus(second.farmer), 401);
    assert.equal(await customerStatus(second.customer), 401);
    await stop(up);
  });
});
