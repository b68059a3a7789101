/**
 * Nodes lost and back (issue 39): the losses a cluster's events make (overlapping reports, a node back early,
 * twice, or never lost), the slots of a window a loss touches, the usage that makes a lost node unavailable,
 * and that every strategy then places nothing on it while it is lost (check-plan.py agreeing); the forecast
 * miss that sets off automatic re-planning.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lostSlots, NodeEvent, nodeLosses, withLostNodes } from '../../src/engine/commitments/node-loss';
import { forecastMiss } from '../../src/engine/forecast/miss';
import { loadInstance } from '../../src/engine/model/model';
import type { InstanceDoc } from '../../src/engine/model/types';
import { solve } from '../../src/engine/solve';
import { strategyNames } from '../../src/engine/strategies';
import { checkerAvailable, checkPlans, SKIP_MESSAGE } from '../support/check-plan';
import { BACKSTOP_MS } from '../support/work-limit';

const H = 3_600_000;
const lost = (node: string, at: number, until: number | null = null): NodeEvent => ({ type: 'node-lost', node, atMs: at * H, untilMs: until === null ? null : until * H });
const back = (node: string, at: number): NodeEvent => ({ type: 'node-back', node, atMs: at * H, untilMs: null });
const hours = (l: { node: string; fromMs: number; toMs: number | null }) => ({ node: l.node, from: l.fromMs / H, to: l.toMs === null ? null : l.toMs / H });

describe('nodeLosses', () => {
  test('a loss lasts until its expected return, or until the node is back, or for good', () => {
    assert.deepEqual(nodeLosses([lost('a', 1, 3)]).map(hours), [{ node: 'a', from: 1, to: 3 }]);
    assert.deepEqual(nodeLosses([lost('a', 1), back('a', 4)]).map(hours), [{ node: 'a', from: 1, to: 4 }]);
    assert.deepEqual(nodeLosses([lost('a', 1)]).map(hours), [{ node: 'a', from: 1, to: null }]);
    // Back before it was expected: the loss ends then.
    assert.deepEqual(nodeLosses([lost('a', 1, 10), back('a', 2)]).map(hours), [{ node: 'a', from: 1, to: 2 }]);
  });

  test('overlapping losses join; a node-back when the node is not lost changes nothing; events are taken in the order they happened', () => {
    assert.deepEqual(nodeLosses([lost('a', 1, 3), lost('a', 2, 5)]).map(hours), [{ node: 'a', from: 1, to: 5 }]);
    assert.deepEqual(nodeLosses([lost('a', 1, 3), lost('a', 2)]).map(hours), [{ node: 'a', from: 1, to: null }]);
    assert.deepEqual(nodeLosses([lost('a', 1, 3), lost('a', 3, 4)]).map(hours), [{ node: 'a', from: 1, to: 3 }, { node: 'a', from: 3, to: 4 }]);
    assert.deepEqual(nodeLosses([back('a', 0), lost('a', 1, 3), back('a', 5)]).map(hours), [{ node: 'a', from: 1, to: 3 }]);
    // Reported late: the node-back posted first happened after the loss posted second.
    assert.deepEqual(nodeLosses([back('a', 4), lost('a', 1)]).map(hours), [{ node: 'a', from: 1, to: 4 }]);
    // Lost and back at the same instant, in the order posted: no loss; back then lost: lost from then on.
    assert.deepEqual(nodeLosses([lost('a', 2), back('a', 2)]).map(hours), []);
    assert.deepEqual(nodeLosses([back('a', 2), lost('a', 2)]).map(hours), [{ node: 'a', from: 2, to: null }]);
    assert.deepEqual(nodeLosses([lost('b', 2, 3), lost('a', 1, 2)]).map(hours), [{ node: 'a', from: 1, to: 2 }, { node: 'b', from: 2, to: 3 }]);
  });
});

describe('lostSlots and withLostNodes', () => {
  const w = { startsAtMs: 10 * H, slotSeconds: 3600, slots: 6 };

  test('a slot the loss touches at all is lost whole; a loss outside the window touches nothing', () => {
    assert.deepEqual(lostSlots({ node: 'a', fromMs: 11 * H, toMs: 13 * H }, w), { first: 1, last: 2 });
    assert.deepEqual(lostSlots({ node: 'a', fromMs: 11.5 * H, toMs: 13.25 * H }, w), { first: 1, last: 3 });
    assert.deepEqual(lostSlots({ node: 'a', fromMs: 0, toMs: null }, w), { first: 0, last: 5 });
    assert.deepEqual(lostSlots({ node: 'a', fromMs: 14 * H, toMs: 40 * H }, w), { first: 4, last: 5 });
    assert.equal(lostSlots({ node: 'a', fromMs: 0, toMs: 10 * H }, w), null);
    assert.equal(lostSlots({ node: 'a', fromMs: 16 * H, toMs: null }, w), null);
  });

  test('sets the lost slots to 1 on every metric, keeps the forecast elsewhere, and leaves its input alone', () => {
    const usage = { a: { cpu: [0.1, 0.2, 0.3] }, b: { cpu: [0.5, 0.5, 0.5, 0.5, 0.5, 0.5], ram: [0.2, 0.2, 0.2, 0.2, 0.2, 0.2] } };
    const before = JSON.stringify(usage);
    const out = withLostNodes(usage, ['a', 'b'], ['cpu', 'ram'], w, [{ node: 'a', fromMs: 11 * H, toMs: 12 * H }, { node: 'gone', fromMs: 0, toMs: null }]);
    assert.deepEqual(out, { a: { cpu: [0.1, 1, 0.3, 0, 0, 0], ram: [0, 1, 0, 0, 0, 0] }, b: usage.b });
    assert.equal(JSON.stringify(usage), before);
    assert.equal(withLostNodes(usage, ['a', 'b'], ['cpu'], w, [{ node: 'a', fromMs: 20 * H, toMs: null }]), usage);
    assert.deepEqual(withLostNodes(undefined, ['a'], ['cpu'], w, [{ node: 'a', fromMs: 14 * H, toMs: null }]), { a: { cpu: [0, 0, 0, 0, 1, 1] } });
  });

  test('every strategy places nothing on a lost node while it is lost, whatever the safety margin, and check-plan.py agrees', async (t) => {
    const base: InstanceDoc = {
      format: 'fallow.instance/v1',
      name: 'node-lost',
      horizon: { slots: 8, slotSeconds: 3600 },
      metrics: ['cpu', 'ram'],
      safetyMargin: { cpu: 0.1 },
      nodes: [
        { id: 'a', capacity: { cpu: 4, ram: 8 } },
        { id: 'b', capacity: { cpu: 4, ram: 8 } },
      ],
      usage: { a: { cpu: [0, 0, 0, 0, 0, 0, 0, 0] } },
      jobs: [{ id: 'j', stages: [{ id: 'm', tasks: 10, durationSeconds: 3600, demand: { cpu: 1.5, ram: 1 } }] }],
    };
    const window = { startsAtMs: 0, slotSeconds: 3600, slots: 8 };
    const instance = { ...base, usage: withLostNodes(base.usage, ['a', 'b'], base.metrics, window, nodeLosses([lost('a', 1, 4)])) };
    const pairs = [];
    for (const strategy of strategyNames()) {
      const plan = await solve(loadInstance(instance), { strategy, seed: 3, maxIterations: 50, timeBudgetMs: BACKSTOP_MS });
      assert.deepEqual(plan.assignments.filter((a) => a.node === 'a' && a.start >= 1 && a.start < 4), [], `${strategy}: nothing on a in slots 1-3`);
      assert.ok(plan.assignments.some((a) => a.node === 'a'), `${strategy}: a is used outside its loss`);
      pairs.push({ instance, plan });
    }
    if (!checkerAvailable()) return t.skip(SKIP_MESSAGE);
    for (const r of checkPlans(pairs)) assert.ok(r.feasible, JSON.stringify(r.errors));
  });
});

describe('forecastMiss', () => {
  const f = { slots: 2, usage: { a: { cpu: [0.2, 0.4] } } };
  const peak = (slot: number, value: number, node = 'a', metric = 'cpu') => ({ node, metric, slot, peak: value });

  test('the mean absolute miss of the slots inside the forecast; a series it leaves out was forecast 0', () => {
    const m = forecastMiss([peak(0, 0.5), peak(1, 0.4), peak(1, 0.3, 'b'), peak(0, 0.1, 'a', 'ram'), peak(-1, 1), peak(2, 1)], f)!;
    assert.equal(m.slots, 4); // slots -1 and 2 are outside the forecast
    assert.ok(Math.abs(m.miss - (0.3 + 0 + 0.3 + 0.1) / 4) < 1e-12);
    assert.equal(forecastMiss([peak(5, 1)], f), null);
    assert.equal(forecastMiss([], f), null);
    // A plan made on idle nodes: the forecast is 0 at every slot.
    assert.ok(Math.abs(forecastMiss([peak(7, 0.4), peak(-3, 1)], null)!.miss - 0.7) < 1e-12);
  });
});
