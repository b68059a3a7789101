/**
 * InFlight (src/modules/charts/in-flight.ts): the requests in flight at once share one load (the plan page's two
 * charts read a large plan once); a request after the last of them has been answered loads afresh.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InFlight } from '../../src/modules/charts/in-flight';

describe('loads shared by the requests in flight', () => {
  test('two requests at once load once; one after both are answered loads again', async () => {
    const shared = new InFlight<number>();
    let loads = 0;
    const load = async () => ++loads;
    const a = shared.join('plan', load);
    const b = shared.join('plan', load);
    assert.equal(await a.get(), 1);
    a.release();
    a.release(); // idempotent: b still holds it
    assert.equal(await b.get(), 1, 'b, still in flight, shares what a loaded');
    b.release();
    assert.equal(shared.size, 0, 'forgotten with the last request');
    const c = shared.join('plan', load);
    assert.equal(await c.get(), 2, 'a later request reads afresh');
    c.release();
  });

  test('nothing is loaded for a request that never asks (a chart served from the cache), and keys are apart', async () => {
    const shared = new InFlight<string>();
    let loads = 0;
    const idle = shared.join('x', async () => `x${++loads}`);
    const other = shared.join('y', async () => `y${++loads}`);
    idle.release();
    assert.equal(loads, 0);
    assert.equal(await other.get(), 'y1');
    other.release();
    assert.equal(shared.size, 0);
  });

  test('a failed load is shared by those in flight, not kept for later ones', async () => {
    const shared = new InFlight<number>();
    let calls = 0;
    const a = shared.join('p', async () => {
      calls++;
      throw new Error('database away');
    });
    const b = shared.join('p', async () => 7);
    await assert.rejects(a.get(), /database away/);
    await assert.rejects(b.get(), /database away/);
    a.release();
    b.release();
    const c = shared.join('p', async () => 7);
    assert.equal(await c.get(), 7);
    c.release();
    assert.equal(calls, 1);
  });
});
