/**
 * README.md's "One cluster, many customers" walk-through (examples/sharing.sh, shown verbatim in the README)
 * run with bash against the real service (API, a worker process, Postgres, Redis) with a farmer's, a
 * customer's and the operator's keys: it must exit 0, the second customer's first commit must be the 409 the
 * script shows, and the two committed plans laid on one time line must fit the cluster.
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

describe('the README sharing walk-through', { skip: shellToolsMissing() }, () => {
  let svc: Service;
  before(async () => {
    svc = await startService();
  });
  after(async () => svc?.close());

  it('README.md shows examples/sharing.sh verbatim, and the files it posts exist', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const script = readFileSync(path.join(ROOT, 'examples', 'sharing.sh'), 'utf8');
    const block = /## One cluster, many customers[^]*?```sh\n([^]*?)```/.exec(readme)?.[1];
    assert.equal(block, script);
    for (const m of script.matchAll(/\$EX\/([\w.-]+)/g)) assert.ok(readFileSync(path.join(ROOT, 'examples', m[1])), m[1]);
  });

  it('runs against the service: the first commit holds, the second plan meets a 409, is solved again and commits', async (t) => {
    const worker = svc.startWorker();
    t.after(() => stopChild(worker));
    const farmer = (await svc.tenant('share-farm', ['farmer'])).keys.farmer;
    const customer = (await svc.tenant('share-shop', ['customer'])).keys.customer;
    const r = await run('bash', ['examples/sharing.sh'], {
      cwd: ROOT,
      env: { ...process.env, FARMER: farmer, CUSTOMER: customer, OP: svc.operatorKey, API: svc.baseUrl },
      timeout: 120_000,
    }).catch((e: { code: number; stdout: string; stderr: string }) => assert.fail(`sharing.sh exited ${e.code}:\n${e.stdout}\n${e.stderr}`));
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(lines[0], { customer: 'default', shares: { cpu: 0.75 }, borrow: false });
    assert.deepEqual(lines[1], { id: 'etl', accepted: true, plannedEnd: lines[1].plannedEnd, revenue: 6, reason: null });
    assert.equal(lines[2].status, 'committed');
    assert.equal(lines[3].status, 409, JSON.stringify(lines[3]));
    assert.ok(lines[3].first.excess > 0, JSON.stringify(lines[3]));
    assert.equal(lines[4].status, 'committed');
    assert.equal(lines.at(-1).status, 'released');

    // The plans: the first released, the second committed, plus the refused proposal; nothing holds but the second.
    const plans = await svc.sql<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM plans GROUP BY status ORDER BY status');
    assert.deepEqual(plans, [
      { status: 'committed', n: 1 },
      { status: 'proposed', n: 1 },
      { status: 'released', n: 1 },
    ]);
    const [held] = await svc.sql<{ plans: number }>('SELECT count(DISTINCT plan_id)::int AS plans FROM plan_holds');
    assert.equal(held.plans, 1);
  });
});
