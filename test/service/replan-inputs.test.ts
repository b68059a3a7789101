/**
 * The two pure pieces of a re-plan's set-up (no services): the slot of now (nowOf: the request's nowSlot, its
 * `at` or the clock; a 422 issue outside the window) and the regular load of the cluster now (refreshedUsage: a
 * newer forecast where it covers the plan's window, the plan's own series elsewhere, for the nodes the cluster
 * has now).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { refreshedUsage } from '../../src/modules/replans/refresh-usage';
import { nowOf } from '../../src/modules/replans/replans.service';

const T0 = Date.parse('2030-01-01T00:00:00Z');
const HOUR = 3_600_000;
/** Six hourly slots from T0. */
const WINDOW = { startsAtMs: T0, slotSeconds: 3600, slots: 6 };

describe('the slot of now', () => {
  it('nowSlot is the start of that slot; at and the clock fall in a slot', () => {
    assert.deepEqual(nowOf({ nowSlot: 2 }, WINDOW, 0), { nowSlot: 2, nowMs: T0 + 2 * HOUR });
    assert.deepEqual(nowOf({ at: '2030-01-01T03:30:00Z' }, WINDOW, 0), { nowSlot: 3, nowMs: T0 + 3.5 * HOUR });
    assert.deepEqual(nowOf({}, WINDOW, T0 + 5.9 * HOUR), { nowSlot: 5, nowMs: T0 + 5.9 * HOUR });
  });

  it('outside the window, or both given, is an issue naming the field', () => {
    assert.deepEqual(nowOf({ nowSlot: 6 }, WINDOW, 0), [{ path: 'nowSlot', message: "must be a slot of the plan's window, 0 to 5, got 6" }]);
    const [before] = nowOf({ at: '2029-12-31T23:59:59Z' }, WINDOW, 0) as { path: string; message: string }[];
    assert.equal(before.path, 'at');
    assert.match(before.message, /^at 2029-12-31T23:59:59Z is outside the plan's window \[2030-01-01T00:00:00.000Z, 2030-01-01T06:00:00.000Z\)/);
    const [late] = nowOf({}, WINDOW, T0 + 6 * HOUR) as { path: string; message: string }[];
    assert.equal(late.path, 'at');
    assert.match(late.message, /^now \(2030-01-01T06:00:00.000Z, the default\) is outside/);
    assert.deepEqual(nowOf({ nowSlot: 1, at: '2030-01-01T01:00:00Z' }, WINDOW, 0), [{ path: 'nowSlot', message: 'give nowSlot or at, not both' }]);
  });
});

describe('the regular load of the cluster now', () => {
  const old = { n1: { cpu: [0.1, 0.1, 0.1, 0.1, 0.1, 0.1] }, gone: { cpu: [0.9, 0.9, 0.9, 0.9, 0.9, 0.9] } };

  it("a newer forecast where it covers the window, the plan's own series elsewhere, for the nodes and metrics of now", () => {
    // From 02:30 for three hours: the window's slots 3, 4 and 5 start in its slots 0, 1 and 2 (a slot reads the forecast slot its start falls in).
    const forecast = { startsAtMs: T0 + 2.5 * HOUR, slotSeconds: 3600, slots: 3, usage: { n1: { cpu: [0.5, 0.6, 0.7] }, back: { cpu: [0.2, 0.2, 0.2] } } };
    const usage = refreshedUsage(old, forecast, WINDOW, ['n1', 'back', 'idle'], ['cpu']);
    assert.deepEqual(usage, {
      n1: { cpu: [0.1, 0.1, 0.1, 0.5, 0.6, 0.7] },
      back: { cpu: [0, 0, 0, 0.2, 0.2, 0.2] },
    });
  });

  it("a forecast on the window's slot boundaries replaces the slots it covers; none keeps the plan's series for the nodes of now", () => {
    const aligned = { startsAtMs: T0 + 2 * HOUR, slotSeconds: 3600, slots: 10, usage: { n1: { cpu: Array(10).fill(0.4) } } };
    assert.deepEqual(refreshedUsage(old, aligned, WINDOW, ['n1'], ['cpu']), { n1: { cpu: [0.1, 0.1, 0.4, 0.4, 0.4, 0.4] } });
    const none = { startsAtMs: 0, slotSeconds: 3600, slots: 0, usage: {} };
    assert.deepEqual(refreshedUsage(old, none, WINDOW, ['n1'], ['cpu', 'ram']), { n1: { cpu: old.n1.cpu } });
  });
});
