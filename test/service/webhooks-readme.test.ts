/**
 * README.md's "Webhooks" block run with bash as written against the real service (API, a worker process,
 * Postgres, Redis): the example receiver (examples/webhook-receiver.js) it starts checks the signature of the
 * solve's delivery and prints the event, and the delivery log says it succeeded at the first attempt. The
 * verification snippet the README shows is the receiver's own code.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { freePort, Service, startService } from '../../harness/service';
import { readme, ROOT, shBlocksUnder } from '../support/readme-blocks';
import { shellToolsMissing } from '../support/shell-tools';

const run = promisify(execFile);
/** Ends the block's background receiver however the block ends. */
const PRELUDE = `set -euo pipefail\ntrap 'kill $(jobs -p) 2>/dev/null || true' EXIT\n`;

describe("README.md's Webhooks block, as written", { skip: shellToolsMissing() }, () => {
  let svc: Service;
  let dir: string;

  before(async () => {
    svc = await startService();
    svc.startWorker();
    // The block's relative paths (examples/...) resolve in its working directory, where it also writes its files.
    dir = mkdtempSync(path.join(tmpdir(), 'fallow-webhooks-'));
    symlinkSync(path.join(ROOT, 'examples'), path.join(dir, 'examples'));
  });
  after(async () => {
    await svc?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('shows the verification of examples/webhook-receiver.js verbatim', () => {
    const section = readme().split('\n## ').find((s) => s.startsWith('Webhooks\n'))!;
    const snippet = /```js\n([^]*?)```/.exec(section)?.[1];
    assert.ok(snippet, 'the section shows a js block');
    assert.ok(readFileSync(path.join(ROOT, 'examples', 'webhook-receiver.js'), 'utf8').includes(snippet), 'the js block is the receiver\'s code');
  });

  it('subscribes, receives a signed solve.ended at the example receiver, and lists the delivery', async () => {
    const [block] = shBlocksUnder(readme(), '## Webhooks');
    const customer = (await svc.tenant('readme-hooks', ['customer'])).keys.customer;
    const env = { ...process.env, API: svc.baseUrl, CUSTOMER: customer, HOOK_PORT: String(await freePort()) };
    const r = await run('bash', ['-c', PRELUDE + block], { cwd: dir, env, timeout: 90_000 }).catch((e: { code: number; stdout: string; stderr: string }) =>
      assert.fail(`the block exited ${e.code}:\n${e.stdout}\n${e.stderr}`),
    );
    const [subscribed, event, delivery] = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(subscribed.events, ['solve.ended', 'commit.refused']);
    assert.equal(subscribed.url, `http://127.0.0.1:${env.HOOK_PORT}/fallow`);
    assert.equal(event.type, 'solve.ended');
    assert.equal(event.status, 'succeeded');
    assert.deepEqual(delivery, { event: 'solve.ended', status: 'succeeded', attempts: 1, statusCode: 204 });
    // The receiver printed what it verified: the solve the block posted.
    const [solve] = await svc.sql<{ id: string }>('SELECT id FROM solves');
    assert.equal(event.solve, solve.id);
  });
});
