/**
 * Item 6 of issue 21: the usage route checks the API key before reading its (up to 100 MB) body, and
 * requests without a valid key are rate limited per source address. Before: four unauthenticated 91 MB
 * uploads grew the API by 1 GB before each got its 401, and 1,000 wrong keys were 1,000 database lookups.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Service, startService } from '../../harness/service';
import { answerBeforeBody } from '../support/partial-body';
import { startOfAFreshWindow } from '../support/rate-window';

describe('authentication before the body, and failures per address', () => {
  let svc: Service;
  let farmer: string;
  let clusterId: string;

  before(async () => {
    svc = await startService({ authFailuresPerMinute: 5 });
    farmer = (await svc.tenant('early-auth', ['farmer'])).keys.farmer;
    const c = await svc.client(farmer).POST('/v1/clusters', { body: { name: 'c', metrics: ['cpu'], nodes: [{ id: 'h0', capacity: { cpu: 4 } }] } });
    clusterId = c.data!.id;
    await startOfAFreshWindow();
  });
  after(() => svc?.close());

  it('answers 401 on the usage route before the body has arrived', async () => {
    // 1 KB of a declared 50 MB: an answer can only come from a server that did not wait for the rest.
    const { status } = await answerBeforeBody(`${svc.baseUrl}/v1/clusters/${clusterId}/usage`, 'POST', { authorization: 'Bearer flw_wrong' });
    assert.equal(status, 401);
  });

  it('refuses an address with 429 after 5 requests without a valid key a minute', async () => {
    // The first test spent one failure already.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await fetch(`${svc.baseUrl}/v1/batches`, { headers: { authorization: `Bearer flw_guess_${i}` } });
      statuses.push(r.status);
      if (r.status === 429) assert.ok(Number(r.headers.get('retry-after')) > 0);
    }
    assert.deepEqual(statuses, [401, 401, 401, 401, 429, 429]);
  });
});
