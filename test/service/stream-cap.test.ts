/**
 * Issue 35: one API key may hold at most FALLOW_MAX_STREAMS_PER_KEY event streams at once. Before, one key
 * held 584 concurrent GET /v1/solves/{id}/events streams. No worker runs here: the solve stays queued and
 * its stream stays open (a heartbeat a second) until the client leaves.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ephemeralInstance } from '../../harness/ephemeral-instance';
import { Service, startService, waitFor } from '../../harness/service';

const CAP = 3;

describe('event streams per API key', () => {
  let svc: Service;
  let customer: string;
  let other: string;
  let url: string;
  const open: AbortController[] = [];

  /** Opens the stream with `key`; a 200 is read up to its first event, so the stream is established. */
  async function follow(key: string): Promise<{ res: Response; abort: AbortController }> {
    const abort = new AbortController();
    const res = await fetch(url, { headers: { Authorization: `Bearer ${key}` }, signal: abort.signal });
    if (res.status === 200) {
      open.push(abort);
      const first = await res.body!.getReader().read();
      assert.match(new TextDecoder().decode(first.value), /^event: solve/);
    }
    return { res, abort };
  }

  before(async () => {
    svc = await startService({ maxStreamsPerKey: CAP });
    const t = await svc.tenant('follower', ['customer']);
    customer = t.keys.customer;
    other = (await svc.client(svc.operatorKey).POST('/v1/tenants/{id}/keys', { params: { path: { id: t.id } }, body: { role: 'customer' } })).data!.key;
    const created = await svc.client(customer).POST('/v1/solves', { body: { instance: ephemeralInstance({ nodes: 2, jobs: 3, slots: 12, seed: 1 }) as never, strategy: 'rffd' } });
    assert.equal(created.response.status, 202, JSON.stringify(created.error));
    url = `${svc.baseUrl}/v1/solves/${created.data!.id}/events`;
  });
  after(async () => {
    for (const a of open) a.abort();
    await svc?.close();
  });

  it('refuses the stream past the cap with 429 and Retry-After, and takes one again once a stream closes', async () => {
    const held = [];
    for (let i = 0; i < CAP; i++) {
      const s = await follow(customer);
      assert.equal(s.res.status, 200);
      held.push(s);
    }
    const refused = await follow(customer);
    assert.equal(refused.res.status, 429);
    assert.match(refused.res.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.ok(Number(refused.res.headers.get('retry-after')) > 0);
    assert.match(((await refused.res.json()) as { detail: string }).detail, /at most 3 event streams/);
    // The cap is per key: another key of the same tenant still follows.
    const otherKey = await follow(other);
    assert.equal(otherKey.res.status, 200);
    otherKey.abort.abort();

    held[0].abort.abort(); // the client goes away: its slot is given back when the server sees the close
    await waitFor('a stream accepted again', async () => {
      const s = await follow(customer);
      if (s.res.status !== 200) await s.res.arrayBuffer();
      return s.res.status === 200 ? true : undefined;
    }, 5000);
    const full = await follow(customer);
    assert.equal(full.res.status, 429, 'the cap holds again once the freed slot is taken');
    await full.res.arrayBuffer();
  });

  it('gives the slot of a refused or failed request back (404s never fill the cap)', async () => {
    for (const a of open.splice(0)) a.abort();
    const unknown = url.replace(/solves\/[^/]+/, 'solves/00000000-0000-4000-8000-000000000000');
    await waitFor('the aborted streams given back', async () => {
      const statuses = [];
      for (let i = 0; i < CAP + 2; i++) {
        const r = await fetch(unknown, { headers: { Authorization: `Bearer ${customer}` } });
        await r.arrayBuffer();
        statuses.push(r.status);
      }
      return statuses.every((s) => s === 404) ? true : undefined;
    }, 5000);
    for (let i = 0; i < CAP; i++) assert.equal((await follow(customer)).res.status, 200);
  });
});
