/**
 * The QoS controllers at their own period (SimOptions.qosPeriodSeconds, qos-clock.ts): the regular
 * customers' load moves linearly within a slot, and a controller checking every 100 ms reacts to a burst
 * inside the slot, at the first 100-ms multiple after the load crosses its threshold; the per-slot
 * controller (period = the slot) only sees each slot's value at its boundary. Slots of 50 s here.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadInstance, Model } from '../../src/engine/model/model';
import { HadoopPolicy } from '../../src/engine/policies/hadoop/hadoop';
import { PosumAllocationPolicy } from '../../src/engine/policies/posum/allocation';
import { crossingTime, nextPoll } from '../../src/engine/simulate/qos-clock';
import { Driver, Simulator } from '../../src/engine/simulate/simulator';
import { ActualUsage } from '../../src/engine/simulate/usage';
import { getQos } from '../../src/engine/qos';
import { at, planOf } from '../support/fixtures';
import { node, oneJob, runDriver, runPlan } from '../support/sim-fixtures';

const close = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) < 1e-6, `${what}: ${a}, expected ${b}`);
const PER_SLOT = { qosPeriodSeconds: 50 };

/** 0 at every slot start but slot 1's, where it is `peak`: the load rises through slot 0 and falls through slot 1. */
function burst(peak: number): number[] {
  return Array.from({ length: 20 }, (_, t) => (t === 1 ? peak : 0));
}

describe('load within a slot and the crossing', () => {
  test('ActualUsage.within interpolates linearly from a slot start to the next, equal to at() at slot starts', () => {
    const doc = oneJob([{ id: 'm', tasks: 1, demand: { cpu: 1, ram: 1 }, durationSeconds: 10 }]);
    const model = loadInstance(doc);
    const u = new ActualUsage(model, { a: { ram: burst(0.8) } });
    close(u.within(0, 1, 0, 0), 0, 'slot 0 start');
    close(u.within(0, 1, 0, 0.25), 0.2, 'a quarter into slot 0');
    close(u.within(0, 1, 1, 0), 0.8, 'slot 1 start');
    close(u.within(0, 1, 1, 0.5), 0.4, 'half through slot 1');
    close(u.within(0, 1, 19, 0.5), 0, 'past the window it wraps to slot 0');
  });

  test('crossingTime solves the linear load; nextPoll rounds up to the next period', () => {
    close(crossingTime(0, 1, 0.5, 0, 50, 0), 25, 'rising through 0.5');
    close(crossingTime(0, 1, 0.5, 0, 50, 30), 30, 'already above: now');
    assert.equal(crossingTime(1, 0, 0.5, 0, 50, 30), Infinity, 'falling and below: never within the slot');
    assert.equal(crossingTime(0, 0.4, 0.5, 0, 50, 0), Infinity, 'rising but not that far');
    assert.equal(crossingTime(0, 1, Infinity, 0, 50, 0), Infinity);
    close(nextPoll(25, 0.1), 25.1, 'at the crossing the load only equals the threshold');
    close(nextPoll(25.03, 0.1), 25.1, 'rounded up');
    close(nextPoll(25, 5), 30, 'a 5-s controller');
    // Strictly later even where k * 0.1 rounds (a control event at t must not schedule another at t).
    for (let k = 0; k < 100000; k++) assert.ok(nextPoll(k * 0.1, 0.1) > k * 0.1, `nextPoll(${k} x 0.1)`);
  });
});

describe('a burst inside a slot: the 100-ms controller reacts, the per-slot one does not', () => {
  // One task of 8 GB (of a's 16) for 40 s from t = 0, no margin. RAM rises from 0 to 100% through slot 0:
  // 8 GB no longer fit once U > 0.5, at t = 25 s. The per-slot controller sees 0 all slot long and the task
  // ends at 40 s, before the boundary.
  const doc = oneJob([{ id: 'm', tasks: 1, demand: { cpu: 1, ram: 8 }, durationSeconds: 40 }]);
  const plan = planOf(doc, [at('j/m/0@a:0')]);
  const actual = { a: { ram: burst(1) } };
  for (const qos of ['salamander', 'cuckoo', 'cuckoo-salamander-reading'])
    test(qos, () => {
      const fast = runPlan(doc, plan, actual, qos);
      assert.equal(fast.report.relaunches, 1);
      close(fast.sim.startedAt[0], 25.1, 'killed at the first 100 ms after the crossing and relaunched at once');
      assert.equal(fast.sim.node[0], 1, 'on b (a is closed for the rest of the slot)');
      const slow = runPlan(doc, plan, actual, qos, PER_SLOT);
      assert.equal(slow.report.relaunches, 0);
      close(slow.report.makespanSeconds, 40, 'per-slot: ran to its end on a');
    });

  test('none never kills', () => {
    assert.equal(runPlan(doc, plan, actual, 'none').report.relaunches, 0);
  });

  test('the period is configurable: a 5-s controller acts at 30 s', () => {
    close(runPlan(doc, plan, actual, 'salamander', { qosPeriodSeconds: 5 }).sim.startedAt[0], 30, 'relaunched at');
  });

  test('a period longer than a slot, or not positive, is refused', () => {
    assert.throws(() => runPlan(doc, plan, actual, 'salamander', { qosPeriodSeconds: 60 }), /qosPeriodSeconds must be in \[0.001, 50\]/);
    assert.throws(() => runPlan(doc, plan, actual, 'salamander', { qosPeriodSeconds: 0 }), /qosPeriodSeconds/);
  });
});

describe("RQ3's two Cuckoo controllers on a CPU burst inside a slot", () => {
  // Two tasks of 1 core (of a's 4) for 48 s, CPU margin 10 %: 0.4 core.
  const doc = oneJob([{ id: 'm', tasks: 2, demand: { cpu: 1, ram: 1 }, durationSeconds: 48 }], { safetyMargin: { cpu: 0.1 } });
  const plan = planOf(doc, [at('j/m/0@a:0'), at('j/m/1@a:0')]);

  test('a CPU-only violation: Salamander\'s reading kills, Cuckoo\'s own text and Salamander throttle', () => {
    // CPU rises to 80 % through slot 0: the tasks' 2 cores exceed 4(1 - U) - 0.4 + 0.2 once U > 0.45 (t = 28.1 s),
    // but 4 x 0.2 = 0.8 core > the 0.4-core margin is always left: no starvation.
    const actual = { a: { cpu: burst(0.8) } };
    const reading = runPlan(doc, plan, actual, 'cuckoo-salamander-reading');
    assert.ok(reading.report.relaunches >= 1, `relaunched ${reading.report.relaunches}`);
    const firstKill = Math.min(...Array.from(reading.sim.startedAt).filter((t) => t > 0));
    close(firstKill, 28.2, 'first kill');
    for (const qos of ['cuckoo', 'salamander']) assert.equal(runPlan(doc, plan, actual, qos).report.relaunches, 0, qos);
    assert.equal(runPlan(doc, plan, actual, 'cuckoo-salamander-reading', PER_SLOT).report.relaunches, 0, 'per-slot: not seen');
  });

  test('CPU starvation: Cuckoo kills the container once only the margin is left, Salamander never', () => {
    // CPU rises to 100 % through slot 0: only the margin (0.4 core) is left from U = 0.9, t = 45 s.
    const actual = { a: { cpu: burst(1) } };
    const cuckoo = runPlan(doc, plan, actual, 'cuckoo');
    assert.deepEqual(Array.from(cuckoo.sim.kills), [1, 1], 'both tasks: the container');
    for (const i of [0, 1]) close(cuckoo.sim.startedAt[i], 45.1, `task ${i} relaunched at`);
    assert.equal(runPlan(doc, plan, actual, 'salamander').report.relaunches, 0);
    assert.equal(runPlan(doc, plan, actual, 'cuckoo', PER_SLOT).report.relaunches, 0, 'per-slot: not seen');
  });
});

describe('the scheduled checks are those of a controller polling every 100 ms', () => {
  /**
   * Hadoop's driver, plus a check of every node at every multiple of 0.1 s (the simulator's own control(),
   * reached through a timer): if a scheduled check came late or was missed, a poll would kill earlier and
   * the run would differ from the one without polls.
   */
  class Polled implements Driver {
    readonly mode = 'policy' as const;
    private n = 0;
    constructor(private readonly inner: Driver) {}
    get name() {
      return this.inner.name;
    }
    prepare(sim: Simulator) {
      this.inner.prepare(sim);
      sim.timer(0, -1);
    }
    onReady(sim: Simulator, i: number) {
      this.inner.onReady(sim, i);
    }
    onKilled(sim: Simulator, i: number, k: number) {
      this.inner.onKilled(sim, i, k);
    }
    onTimer(sim: Simulator, payload: number) {
      if (payload !== -1) return this.inner.onTimer?.(sim, payload);
      const poll = sim as unknown as { control(k: number): void };
      for (let k = 0; k < sim.model.K; k++) poll.control(k);
      if (sim.now < 1000) sim.timer(++this.n * 0.1, -1);
    }
    dispatch(sim: Simulator) {
      this.inner.dispatch(sim);
    }
  }

  // Three nodes of 8 cores and 16 GB, 40 tasks of 1 core and 3 GB for 60 s, margins of 10 %; the regular load
  // jumps between slot values (20 s slots) drawn from a fixed generator, so it ramps up and down within slots.
  let state = 7;
  const rand = () => ((state = (state * 48271) % 2147483647) / 2147483647);
  const series = () => Array.from({ length: 50 }, () => Math.round(rand() * 100) / 100);
  const doc = oneJob([{ id: 'm', tasks: 40, demand: { cpu: 1, ram: 3 }, durationSeconds: 60 }], {
    horizon: { slots: 50, slotSeconds: 20 },
    safetyMargin: { cpu: 0.1, ram: 0.1 },
    nodes: ['a', 'b', 'c'].map((id) => node(id, { capacity: { cpu: 8, ram: 16 }, maxTasks: 8 })),
  });
  const actual = Object.fromEntries(['a', 'b', 'c'].map((id) => [id, { cpu: series(), ram: series() }]));
  for (const qos of ['salamander', 'cuckoo', 'cuckoo-salamander-reading'])
    test(qos, () => {
      const scheduled = runDriver(doc, (m: Model) => new HadoopPolicy(m), actual, qos);
      const polled = runDriver(doc, (m: Model) => new Polled(new HadoopPolicy(m)), actual, qos);
      assert.ok(scheduled.report.relaunches > 0, 'the load makes the controller act');
      assert.deepEqual(Array.from(polled.sim.kills), Array.from(scheduled.sim.kills));
      assert.deepEqual(Array.from(polled.sim.endTime), Array.from(scheduled.sim.endTime));
      assert.deepEqual(Array.from(polled.sim.node), Array.from(scheduled.sim.node));
    });
});

describe('a node the controller killed on within a slot offers no room until the next slot', () => {
  test('an online policy does not relaunch the killed task on it at once, which the controller would kill again, forever', () => {
    // One 8-GB task on a (16 GB) alone: RAM rises from 0 to 100% through slot 0, stays full in slots 1-2, then 0.
    const doc = oneJob([{ id: 'm', tasks: 1, demand: { cpu: 1, ram: 8 }, durationSeconds: 400 }], { nodes: [node('a')] });
    const ram = Array.from({ length: 20 }, (_, t) => (t === 1 || t === 2 ? 1 : 0));
    const model = loadInstance(doc);
    const sim = new Simulator(model, new ActualUsage(model, { a: { ram } }), new PosumAllocationPolicy(model, 'edls-sh'), { qos: getQos('salamander') });
    // The regression loops at one instant (no event, no timer): count launches so that it fails instead of hanging.
    const launch = sim.launch.bind(sim);
    let launches = 0;
    sim.launch = (i, k) => {
      if (++launches > 100) throw new Error(`task ${i} launched ${launches} times on node ${k} at ${sim.now} s`);
      launch(i, k);
    };
    const report = sim.run();
    assert.equal(report.relaunches, 1, 'killed once within slot 0, not relaunched into the same load');
    close(sim.startedAt[0], 150, 'relaunched when slot 3 leaves it room');
    close(report.makespanSeconds, 550, 'and ran to its end');
  });
});

describe('the QoS period and the slot', () => {
  test('the 100-ms default never exceeds a shorter slot; a period below 1 ms or above the slot is refused', () => {
    const doc = oneJob([{ id: 'm', tasks: 2, demand: { cpu: 1, ram: 1 }, durationSeconds: 0.2 }], { horizon: { slots: 100, slotSeconds: 0.05 } });
    const model = loadInstance(doc);
    const run = (qosPeriodSeconds?: number) => new Simulator(model, new ActualUsage(model, undefined), new PosumAllocationPolicy(model, 'edls-sh'), { qos: getQos('salamander'), qosPeriodSeconds }).run();
    assert.equal(run().qosPeriodSeconds, 0.05, 'once per 50-ms slot');
    assert.equal(run().unfinishedJobs, 0);
    assert.throws(() => run(0.1), /qosPeriodSeconds must be in \[0.001, 0.05\]/);
    assert.throws(() => run(1e-13), /qosPeriodSeconds must be in \[0.001/);
  });
});
