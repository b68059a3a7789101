/**
 * Live progress: a running solve's progress is a heartbeat (elapsed, phase, best so far, bound, gap),
 * rewritten at least once a second from its start, and GET /v1/solves/{id}/events streams it as
 * text/event-stream until the solve ends.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ephemeralInstance } from '../../harness/ephemeral-instance';
import { Service, startService, stopChild } from '../../harness/service';
import { problem } from '../support/problem';

interface Event {
  at: number;
  event: string;
  data: { status?: string; progress?: { elapsedMs: number; phase?: string; scheduledTasks: number; boundSlots?: number | null; gap?: number | null } | null; planId?: string | null };
}

/** Reads a text/event-stream to its end, stamping each event with when it arrived. */
async function readEvents(res: Response): Promise<Event[]> {
  const out: Event[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
      const data = /^data: (.*)$/m.exec(block)?.[1];
      out.push({ at: Date.now(), event, data: data ? JSON.parse(data) : {} });
    }
  }
  return out;
}

describe('live progress of a solve', () => {
  let svc: Service;
  let customer: string;
  before(async () => {
    svc = await startService();
    customer = (await svc.tenant('watcher', ['customer'])).keys.customer;
  });
  after(async () => svc?.close());

  it('streams the solve at least once a second with a moving clock, from its start to its end', async (t) => {
    const worker = svc.startWorker();
    t.after(() => stopChild(worker));
    // Overloaded (not every job fits), so that ls searches its whole budget.
    const instance = ephemeralInstance({ nodes: 8, jobs: 150, slots: 48, seed: 5 });
    const created = await svc.client(customer).POST('/v1/solves', { body: { instance: instance as never, strategy: 'ls', timeBudgetMs: 4000 } });
    assert.equal(created.response.status, 202, JSON.stringify(created.error));
    const id = created.data!.id;
    const res = await fetch(`${svc.baseUrl}/v1/solves/${id}/events`, { headers: { Authorization: `Bearer ${customer}` } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    const events = await readEvents(res);
    assert.equal(events.at(-1)!.event, 'end', 'the stream ends with an end event');
    assert.equal(events.at(-1)!.data.status, 'succeeded');
    const running = events.filter((e) => e.event === 'solve' && e.data.status === 'running');
    assert.ok(running.length >= 3, `${running.length} events while running`);
    // Every running event carries progress; the clock moves, and no second passes without an event.
    for (const e of running) assert.ok(e.data.progress, JSON.stringify(e.data));
    for (let n = 1; n < running.length; n++) {
      assert.ok(running[n].at - running[n - 1].at <= 1600, `${running[n].at - running[n - 1].at} ms between two events`);
      assert.ok(running[n].data.progress!.elapsedMs >= running[n - 1].data.progress!.elapsedMs);
    }
    assert.ok(running.at(-1)!.data.progress!.elapsedMs - running[0].data.progress!.elapsedMs >= 2000, 'the elapsed time moves while nothing needs to improve');
    assert.ok(running[0].data.progress!.elapsedMs < 2000, `the first progress came at ${running[0].data.progress!.elapsedMs} ms`);
    const searching = running.filter((e) => e.data.progress!.phase === 'searching');
    assert.ok(searching.length > 0, JSON.stringify(running.map((e) => e.data.progress!.phase)));
    assert.ok(searching.every((e) => typeof e.data.progress!.boundSlots === 'number' && e.data.progress!.boundSlots > 0), 'the bound is known while searching');
    const done = events.filter((e) => e.event === 'solve' && e.data.status === 'succeeded').at(-1)!;
    assert.equal(done.data.progress!.phase, 'done');
    assert.equal(typeof done.data.progress!.gap, 'number');
    assert.ok(done.data.planId);
  });

  it('an unknown solve is a 404 problem, not an empty stream', async () => {
    const r = await svc.client(customer).GET('/v1/solves/{id}', { params: { path: { id: '00000000-0000-4000-8000-000000000000' } } });
    problem(r, 404);
    const res = await fetch(`${svc.baseUrl}/v1/solves/00000000-0000-4000-8000-000000000000/events`, { headers: { Authorization: `Bearer ${customer}` } });
    assert.equal(res.status, 404);
    assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
  });
});
