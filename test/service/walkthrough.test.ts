/**
 * The README's curl walk-through (examples/walkthrough.sh, the same text as README.md's block) run with
 * bash against the real service (API, a worker process, Postgres, Redis) with a farmer's and a customer's
 * keys: it must exit 0 having printed a stored plan, so the README stays true. examples/README.md's
 * "Cancelling a solve mid-way" block runs the same way on the large example instance.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { loadInstance } from '../../src/engine/model/model';
import { InstanceDoc } from '../../src/engine/model/types';
import { Service, startService, stopChild } from '../../harness/service';
import { shellToolsMissing } from '../support/shell-tools';

const ROOT = path.resolve(__dirname, '../../..');
const run = promisify(execFile);

describe('the README walk-through', { skip: shellToolsMissing() }, () => {
  let svc: Service;
  before(async () => {
    svc = await startService();
  });
  after(async () => svc?.close());

  it('runs as a script against the service and ends with a feasible plan', async (t) => {
    const worker = svc.startWorker();
    t.after(() => stopChild(worker));
    const farmer = (await svc.tenant('walk-farm', ['farmer'])).keys.farmer;
    const customer = (await svc.tenant('walk-shop', ['customer'])).keys.customer;
    // execFile, not spawnSync: the API answering the script runs in this process.
    const r = await run('bash', ['examples/walkthrough.sh'], {
      cwd: ROOT,
      env: { ...process.env, FARMER: farmer, CUSTOMER: customer, API: svc.baseUrl },
      timeout: 120_000,
    }).catch((e: { code: number; stdout: string; stderr: string }) => assert.fail(`walkthrough.sh exited ${e.code}:\n${e.stdout}\n${e.stderr}`));

    // stdout: the plan's summary (pretty JSON), then one compact JSON line per assignment on h01.
    const lines = r.stdout.trimEnd().split('\n');
    const firstRow = lines.findIndex((l) => l.startsWith('{"'));
    assert.ok(firstRow > 0, r.stdout);
    const shown = JSON.parse(lines.slice(0, firstRow).join('\n')) as { id: string; kpis: { scheduledTasks: number } };
    const rows = lines.slice(firstRow);
    assert.equal(shown.kpis.scheduledTasks, 10, 'the batch has 10 tasks and the cluster room for all');
    assert.ok(rows.length > 0 && rows.every((l) => JSON.parse(l).node === 'h01'), r.stdout);

    const [solve] = await svc.sql<{ status: string; instance: InstanceDoc; plan_id: string }>(
      'SELECT s.status, s.instance, p.id AS plan_id FROM solves s JOIN plans p ON p.solve_id = s.id',
    );
    assert.equal(solve.status, 'succeeded');
    assert.equal(solve.plan_id, shown.id);
    const plan = await svc.client(customer).GET('/v1/plans/{id}', { params: { path: { id: shown.id } } });
    assert.ok(evaluatePlan(loadInstance(solve.instance), plan.data).ok);
  });

  it('fails with the problem when a key is wrong', async () => {
    const e = await run('bash', ['examples/walkthrough.sh'], {
      cwd: ROOT,
      env: { ...process.env, FARMER: 'not-a-key', CUSTOMER: 'not-a-key', API: svc.baseUrl },
      timeout: 60_000,
    }).then(
      () => assert.fail('the script should fail'),
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
    assert.notEqual(e.code, 0);
    assert.match(e.stderr + e.stdout, /401/);
  });

  it("examples/README.md's cancel block stops a solve of the large instance and keeps a plan short of the bound", async (t) => {
    const worker = svc.startWorker();
    t.after(() => stopChild(worker));
    const customer = (await svc.tenant('walk-cancel', ['customer'])).keys.customer;
    const readme = readFileSync(path.join(ROOT, 'examples', 'README.md'), 'utf8');
    const block = /## Cancelling a solve mid-way[^]*?```sh\n([^]*?)```/.exec(readme)?.[1];
    assert.ok(block, 'examples/README.md has a sh block under "Cancelling a solve mid-way"');
    const r = await run('bash', ['-c', `set -euo pipefail\n${block}`], {
      cwd: ROOT,
      env: { ...process.env, CUSTOMER: customer, API: svc.baseUrl },
      timeout: 120_000,
    }).catch((e: { code: number; stdout: string; stderr: string }) => assert.fail(`the cancel block exited ${e.code}:\n${e.stdout}\n${e.stderr}`));
    const [solve] = await svc.sql<{ status: string; plan_id: string | null }>('SELECT status, plan_id FROM solves WHERE time_budget_ms = 60000');
    assert.equal(solve.status, 'cancelled');
    assert.ok(solve.plan_id, 'the cancelled solve kept its best plan');
    const lines = r.stdout.trimEnd().split('\n');
    const plan = JSON.parse(lines.slice(lines.lastIndexOf('{')).join('\n')) as { optimal?: boolean; gap: number };
    assert.notEqual(plan.optimal, true, r.stdout);
    assert.ok(plan.gap > 0, `a few seconds into the large instance the plan is short of the bound: ${r.stdout}`);
  });
});
