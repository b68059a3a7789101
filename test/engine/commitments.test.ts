/**
 * The pure side of commitments (issue 37): holds in wall-clock time become `reserved` over any window, a quota
 * caps a customer's instance, and a plan's fit is the evaluator's verdict.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Hold, holdsOfPlan, PlanWindow, reservedFromHolds } from '../../src/engine/commitments/holds';
import { planFits } from '../../src/engine/commitments/fit';
import { capToQuota, lendable, quotaExcess } from '../../src/engine/commitments/quota';
import { planAround } from '../../src/engine/commitments/plan-around';
import { loadInstance } from '../../src/engine/model/model';
import type { InstanceDoc } from '../../src/engine/model/types';
import { planOf } from '../support/fixtures';

const H = 3600_000;
const window: PlanWindow = { startsAtMs: 0, slotSeconds: 3600, slots: 4 };

function instance(): InstanceDoc {
  return {
    format: 'fallow.instance/v1',
    name: 'c',
    horizon: { slots: 4, slotSeconds: 3600 },
    metrics: ['cpu', 'ram'],
    nodes: [
      { id: 'a', capacity: { cpu: 4, ram: 8 }, maxTasks: 2 },
      { id: 'b', capacity: { cpu: 4, ram: 8 } },
    ],
    usage: { a: { cpu: [0.5, 0, 0, 0] } },
    jobs: [{ id: 'j', stages: [{ id: 's', tasks: 2, demand: { cpu: 2, ram: 1 }, durationSeconds: 3600 }] }],
  };
}

describe('holds and reserved capacity', () => {
  it('a hold reserves every slot it overlaps, whole, on known nodes and metrics only', () => {
    const holds: Hold[] = [
      { node: 'a', job: 'x', fromMs: 0.5 * H, toMs: 1.25 * H, demand: { cpu: 1, gpu: 3 } },
      { node: 'gone', job: 'x', fromMs: 0, toMs: H, demand: { cpu: 1 } },
      { node: 'b', job: 'y', fromMs: 4 * H, toMs: 5 * H, demand: { cpu: 1 } }, // after the window
    ];
    assert.deepEqual(reservedFromHolds(holds, window, instance().nodes, ['cpu', 'ram']), { a: { cpu: [1, 1, 0, 0], tasks: [1, 1, 0, 0] } });
  });

  it('task counts are capped at maxTasks, and a window on another grid stays safe', () => {
    const three = [0, 1, 2].map(() => ({ node: 'a', job: 'x', fromMs: 0, toMs: H, demand: { cpu: 1 } }));
    assert.deepEqual(reservedFromHolds(three, window, instance().nodes, ['cpu']).a.tasks, [2, 0, 0, 0]);
    const shifted: PlanWindow = { startsAtMs: 0.5 * H, slotSeconds: 3600, slots: 2 };
    assert.deepEqual(reservedFromHolds(three, shifted, instance().nodes, ['cpu']).a.cpu, [3, 0]);
  });

  it("a plan's holds lie where its tasks run, with their stage's demand", () => {
    const inst = instance();
    const plan = planOf(inst, [
      { job: 'j', stage: 's', task: 0, node: 'b', start: 1 },
      { job: 'j', stage: 's', task: 1, node: 'a', start: 2 },
    ]);
    const holds = holdsOfPlan(loadInstance(inst), plan, { ...window, startsAtMs: 10 * H });
    assert.deepEqual(holds, [
      { node: 'b', job: 'j', fromMs: 11 * H, toMs: 12 * H, demand: { cpu: 2, ram: 1 } },
      { node: 'a', job: 'j', fromMs: 12 * H, toMs: 13 * H, demand: { cpu: 2, ram: 1 } },
    ]);
    // With priced transfers a task holds its demand while it fetches, too.
    const priced = { ...plan, transfers: 'priced' as const, assignments: plan.assignments.map((a, i) => ({ ...a, fetchSlots: i })) };
    assert.deepEqual(
      holdsOfPlan(loadInstance(inst), priced, { ...window, startsAtMs: 10 * H }).map((h) => [h.fromMs / H, h.toMs / H]),
      [
        [11, 12],
        [12, 14],
      ],
    );
  });

  it('a plan fits until what others hold leaves it too little, and the overload says where and by how much', () => {
    const inst = instance();
    const plan = planOf(inst, [
      { job: 'j', stage: 's', task: 0, node: 'a', start: 1 },
      { job: 'j', stage: 's', task: 1, node: 'a', start: 1 },
    ]);
    assert.equal(planFits(inst, plan).fits, true);
    const held = { ...inst, reserved: { a: { cpu: [0, 1], tasks: [0, 1] } } };
    const fit = planFits(held, plan);
    assert.equal(fit.fits, false);
    assert.deepEqual(
      fit.overloads.map((o) => [o.node, o.metric, o.slot, o.demand, o.available]),
      [
        ['a', 'cpu', 1, 4, 3],
        ['a', 'tasks', 1, 2, 1],
      ],
    );
  });
});

describe('quotas', () => {
  it('lendable capacity is capacity less the regular load and the safety margin, over every node', () => {
    assert.deepEqual(lendable({ ...instance(), safetyMargin: { cpu: 0.25 } }, 'cpu'), [4, 6, 6, 6]);
  });

  it('a cap leaves at most the allowance free, on whole nodes first, and leaves other metrics alone', () => {
    const inst = instance(); // cpu free: a 2,4,4,4; b 4,4,4,4; lendable 6,8,8,8
    const capped = capToQuota(inst, { shares: { cpu: 0.5 }, borrow: false }, { cpu: [0, 2, 0, 0] });
    // allowance 3, 2, 4, 4: node a (first of two equal nodes) keeps what it can, b the rest
    const model = loadInstance(capped);
    const free = (k: number) => [0, 1, 2, 3].map((t) => Math.round(model.avail[k][0 * 4 + t] * 1e9) / 1e9);
    assert.deepEqual(free(0), [2, 2, 4, 4]);
    assert.deepEqual(free(1), [1, 0, 0, 0]);
    assert.equal(capped.reserved!.a.ram, undefined, 'metrics the quota leaves out are not capped');
    assert.equal(capToQuota(inst, { shares: { cpu: 1 }, borrow: false }, {}), inst, 'nothing to cap: the same instance');
  });

  it('the quota excess names metric and slot, counting what the customer holds already', () => {
    const over = quotaExcess(instance(), { shares: { cpu: 0.5 }, borrow: false }, { cpu: [3, 0, 0, 0] }, { cpu: [2, 4, 0, 0] });
    assert.deepEqual(over, [{ metric: 'cpu', slot: 0, held: 3, adds: 2, quota: 3 }]);
  });

  it("a customer within its quota plans on what borrowers hold; one that may borrow plans around it", () => {
    const holds = [
      { node: 'b', job: 'x', fromMs: 0, toMs: H, demand: { cpu: 4 }, tenantId: 'borrower', borrowing: true },
      { node: 'b', job: 'y', fromMs: H, toMs: 2 * H, demand: { cpu: 4 }, tenantId: 'steady', borrowing: false },
    ];
    const within = planAround(instance(), holds, window, 'me', null);
    assert.deepEqual(within.reserved, { b: { cpu: [0, 4, 0, 0] } });
    const lender = planAround(instance(), holds, window, 'me', { shares: { cpu: 1 }, borrow: true });
    assert.deepEqual(lender.reserved, { b: { cpu: [4, 4, 0, 0] } });
  });
});
