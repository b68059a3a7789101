/**
 * A cluster's schedule (src/engine/commitments/schedule.ts, issue 37 point 3): the time grid from a forecast or
 * without one, and per node and metric the capacity, the regular load C x U, what holds reserve and what is
 * free, on a case worked out by hand.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Hold } from '../../src/engine/commitments/holds';
import { clusterSchedule, DEFAULT_SLOT_SECONDS, MAX_SCHEDULE_SLOTS, scheduleGrid, ScheduleGrid } from '../../src/engine/commitments/schedule';

const MIN = 60_000;
const T0 = Date.parse('2030-05-01T00:00:00Z');

function grid(r: ScheduleGrid | { error: string }): ScheduleGrid {
  assert.ok(!('error' in r), JSON.stringify(r));
  return r;
}

describe('the schedule\'s grid', () => {
  const forecast = { startsAtMs: T0, slotSeconds: 300, slots: 12 };

  test('with a forecast: from floored to its slots, to by default its end', () => {
    const g = grid(scheduleGrid(T0 + 7 * MIN, undefined, forecast));
    assert.deepEqual(g, { window: { startsAtMs: T0 + 5 * MIN, slotSeconds: 300, slots: 11 }, forecastOffset: 1, forecastSlots: 11 });
  });

  test('a to on the grid ends there; inside a slot it takes the whole slot; past the forecast the grid goes on', () => {
    assert.equal(grid(scheduleGrid(T0 + 7 * MIN, T0 + 20 * MIN, forecast)).window.slots, 3);
    assert.equal(grid(scheduleGrid(T0 + 7 * MIN, T0 + 20 * MIN + 1000, forecast)).window.slots, 4);
    const long = grid(scheduleGrid(T0 + 7 * MIN, T0 + 120 * MIN, forecast));
    assert.equal(long.window.slots, 23);
    assert.equal(long.forecastSlots, 11, 'the forecast covers its last 11 slots only');
  });

  test('without a forecast: hourly slots from from itself, a day by default', () => {
    const from = T0 + 7 * MIN + 123;
    assert.deepEqual(grid(scheduleGrid(from, undefined, null)), { window: { startsAtMs: from, slotSeconds: DEFAULT_SLOT_SECONDS, slots: 24 }, forecastOffset: null, forecastSlots: 0 });
    assert.equal(grid(scheduleGrid(from, from + 90 * MIN, null)).window.slots, 2);
  });

  test('a forecast longer than the cap is cut by default; a to needing more slots is an error naming the cap and the latest to', () => {
    const long = { startsAtMs: T0, slotSeconds: 60, slots: 5000 };
    assert.equal(grid(scheduleGrid(T0, undefined, long)).window.slots, MAX_SCHEDULE_SLOTS);
    const r = scheduleGrid(T0, T0 + (MAX_SCHEDULE_SLOTS + 1) * MIN, long);
    assert.ok('error' in r);
    assert.match(r.error, new RegExp(`${MAX_SCHEDULE_SLOTS + 1} slots of 60 s; at most ${MAX_SCHEDULE_SLOTS}, so to at most ${new Date(T0 + MAX_SCHEDULE_SLOTS * MIN).toISOString()}`));
    assert.equal(grid(scheduleGrid(T0, T0 + MAX_SCHEDULE_SLOTS * MIN, long)).window.slots, MAX_SCHEDULE_SLOTS);
  });
});

describe('the schedule\'s figures', () => {
  // 4 one-minute slots; n1: 4 cpu, 8 ram, 2 task slots; n2: 2 cpu, 4 ram, no task limit.
  const window = { startsAtMs: T0, slotSeconds: 60, slots: 4 };
  const nodes = [
    { id: 'n1', capacity: { cpu: 4, ram: 8 }, maxTasks: 2 },
    { id: 'n2', capacity: { cpu: 2, ram: 4 } },
  ];
  const hold = (node: string, job: string, from: number, to: number, demand: Record<string, number>): Hold => ({ node, job, fromMs: T0 + from, toMs: T0 + to, demand });
  const holds = [
    hold('n1', 'a', 0, 2 * MIN, { cpu: 1, ram: 2 }), // slots 0-1
    hold('n1', 'b', 0.5 * MIN, 1.5 * MIN, { cpu: 2 }), // inside slots 0 and 1: holds both whole
    hold('n1', 'c', 0, MIN, { cpu: 0.5 }), // a third task in slot 0: tasks capped at maxTasks
    hold('n2', 'd', 3 * MIN, 5 * MIN, { cpu: 2, ram: 1, gpu: 3 }), // runs past the window; gpu is no metric of the cluster
    hold('n9', 'e', 0, MIN, { cpu: 1 }), // a node the cluster no longer has
  ];
  // The forecast's slot 1 is the window's slot 0; n1's ram and all of n2 have no series (no regular load).
  const regular = { usage: { n1: { cpu: [0.9, 0.25, 0.5, 0, 0] } }, offset: 1 };

  test('per node and metric: capacity, C x U, reserved, and free never below 0', () => {
    const s = clusterSchedule(window, nodes, ['cpu', 'ram'], holds, regular);
    assert.deepEqual(s.nodes, [
      {
        node: 'n1',
        metrics: {
          // slot 0: 4 - 1 - 3.5 < 0 (held while the forecast grew): free 0, reserved shown as held
          cpu: { capacity: 4, regular: [1, 2, 0, 0], reserved: [3.5, 3, 0, 0], free: [0, 0, 4, 4] },
          ram: { capacity: 8, regular: [0, 0, 0, 0], reserved: [2, 2, 0, 0], free: [6, 6, 8, 8] },
        },
        tasks: { maxTasks: 2, reserved: [2, 2, 0, 0], free: [0, 0, 2, 2] },
      },
      {
        node: 'n2',
        metrics: {
          cpu: { capacity: 2, regular: [0, 0, 0, 0], reserved: [0, 0, 0, 2], free: [2, 2, 2, 0] },
          ram: { capacity: 4, regular: [0, 0, 0, 0], reserved: [0, 0, 0, 1], free: [4, 4, 4, 3] },
        },
        tasks: null,
      },
    ]);
    // Totals add the nodes' free (n1's overbooking does not eat n2's free capacity).
    assert.deepEqual(s.totals, {
      cpu: { capacity: 6, regular: [1, 2, 0, 0], reserved: [3.5, 3, 0, 2], free: [2, 2, 6, 4] },
      ram: { capacity: 12, regular: [0, 0, 0, 0], reserved: [2, 2, 0, 1], free: [10, 10, 12, 11] },
    });
    assert.deepEqual(s.taskTotals, { maxTasks: 2, reserved: [2, 2, 0, 0], free: [0, 0, 2, 2] });
  });

  test('without a forecast the regular load is 0; without holds everything is free; no task totals without maxTasks', () => {
    const s = clusterSchedule(window, [nodes[1]], ['cpu'], [], null);
    assert.deepEqual(s.totals.cpu, { capacity: 2, regular: [0, 0, 0, 0], reserved: [0, 0, 0, 0], free: [2, 2, 2, 2] });
    assert.equal(s.taskTotals, null);
  });

  test('past the forecast\'s last slot the regular load is 0', () => {
    const s = clusterSchedule(window, [nodes[0]], ['cpu'], [], { usage: { n1: { cpu: [0.5, 0.5] } }, offset: 0 });
    assert.deepEqual(s.nodes[0].metrics.cpu.regular, [2, 2, 0, 0]);
  });

  test('sums of fractional demands read as decimals', () => {
    const s = clusterSchedule({ ...window, slots: 1 }, [{ id: 'n', capacity: { cpu: 1 } }], ['cpu'], [hold('n', 'x', 0, MIN, { cpu: 0.1 }), hold('n', 'y', 0, MIN, { cpu: 0.2 })], null);
    assert.deepEqual(s.nodes[0].metrics.cpu, { capacity: 1, regular: [0], reserved: [0.3], free: [0.7] });
  });
});
