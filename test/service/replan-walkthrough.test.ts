/**
 * README.md's "Re-planning a running plan" walk-through (examples/replan.sh, shown verbatim in the README) run
 * with bash against the real service (API, a worker process, Postgres, Redis) with a farmer's and a customer's
 * keys: it must exit 0; the re-plan freezes the maps the farmer reported started, runs the killed one again,
 * takes over the commitment, and the diff shows the killed map moved.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { Service, startService, stopChild } from '../../harness/service';
import { shellToolsMissing } from '../support/shell-tools';

const ROOT = path.resolve(__dirname, '../../..');
const run = promisify(execFile);

describe('the README re-planning walk-through', { skip: shellToolsMissing() }, () => {
  let svc: Service;
  before(async () => {
    svc = await startService();
  });
  after(async () => svc?.close());

  it('README.md shows examples/replan.sh verbatim, and the files it posts exist', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const script = readFileSync(path.join(ROOT, 'examples', 'replan.sh'), 'utf8');
    const block = /## Re-planning a running plan\n[^]*?```sh\n([^]*?)```/.exec(readme)?.[1];
    assert.equal(block, script);
    for (const m of script.matchAll(/\$EX\/([\w.-]+)/g)) assert.ok(readFileSync(path.join(ROOT, 'examples', m[1])), m[1]);
  });

  it('runs against the service: the started maps stay, the killed one runs again, the commitment moves, the diff shows it', async (t) => {
    const worker = svc.startWorker();
    t.after(() => stopChild(worker));
    const farmer = (await svc.tenant('replan-farm', ['farmer'])).keys.farmer;
    const customer = (await svc.tenant('replan-shop', ['customer'])).keys.customer;
    const r = await run('bash', ['examples/replan.sh'], {
      cwd: ROOT,
      env: { ...process.env, FARMER: farmer, CUSTOMER: customer, API: svc.baseUrl },
      timeout: 120_000,
    }).catch((e: { code: number; stdout: string; stderr: string }) => assert.fail(`replan.sh exited ${e.code}:\n${e.stdout}\n${e.stderr}`));
    t.diagnostic(r.stdout);
    const [committed, events, replan, now, old, diff] = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(committed, { status: 'committed', version: 1 });
    const started = events.accepted - 1;
    assert.ok(started >= 2, JSON.stringify(events));
    assert.deepEqual(replan, { nowSlot: 1, frozen: started - 1, killed: 1, commitment: { moved: true, reason: null } });
    assert.equal(now.status, 'committed');
    assert.equal(now.version, 2);
    assert.equal(old.status, 'released');
    assert.match(old.releaseReason, /^superseded by re-plan /);
    assert.equal(now.supersedes.length, 36);
    assert.ok(diff.counts.moved >= 1, JSON.stringify(diff));
    assert.ok(diff.moved.some((m: string) => /^etl\/map\/\d+: h0\d@0 -> h0\d@[1-9]/.test(m)), JSON.stringify(diff.moved));
    assert.ok(diff.makespan.after >= diff.makespan.before, JSON.stringify(diff.makespan));
    const plans = await svc.sql<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM plans GROUP BY status ORDER BY status');
    assert.deepEqual(plans, [
      { status: 'committed', n: 1 },
      { status: 'released', n: 1 },
    ]);
  });
});
