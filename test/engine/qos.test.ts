/**
 * QoS controllers (src/engine/qos): Salamander Alg. 3 kills by RAM in reverse scheduling order down to
 * half the safety margin, kills everything below the margin, never kills for CPU; Cuckoo III-D throttles
 * CPU, kills the largest memory users until the whole margin is free, and kills the container when only
 * the margin is left; Salamander's reading of Cuckoo kills for CPU too. In the simulator the killed tasks
 * are relaunched on the node with the most free capacity (more in qos-period.test.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cuckooQos, cuckooSalamanderReadingQos, salamanderQos } from '../../src/engine/qos';
import { QosNodeView } from '../../src/engine/qos/types';
import { at, planOf } from '../support/fixtures';
import { flat, node, oneJob, runPlan, step } from '../support/sim-fixtures';

/** A node of 16 GB RAM and 8 cores running tasks t0..t(n-1) scheduled in that order. */
export function view(regular: { cpu: number; ram: number }, margin: number, tasks: { cpu: number; ram: number }[]): QosNodeView {
  const used = [tasks.reduce((s, t) => s + t.cpu, 0), tasks.reduce((s, t) => s + t.ram, 0)];
  return {
    metrics: ['cpu', 'ram'],
    capacity: [8, 16],
    regular: [regular.cpu, regular.ram],
    margin: [margin, margin],
    used,
    tasks: tasks.map((_, i) => i),
    demand: (i, m) => (m === 0 ? tasks[i].cpu : tasks[i].ram),
    order: (i) => i,
  };
}

describe('Salamander QoS controller (Alg. 3)', () => {
  const four = [1, 2, 3, 4].map(() => ({ cpu: 2, ram: 3 }));

  test('nothing to do while the tasks fit', () => {
    assert.deepEqual(salamanderQos.check(view({ cpu: 0.2, ram: 0.2 }, 0.1, four)), []);
  });

  test('kills by RAM, latest scheduled first, until half the safety margin is back', () => {
    // free RAM = 16 x (1 - 0.5) = 8, sm = 1.6: limit 8 - 1.6 + 0.8 = 7.2. Tasks use 12: kill t3 (9), t2 (6).
    assert.deepEqual(salamanderQos.check(view({ cpu: 0, ram: 0.5 }, 0.1, four)), [3, 2]);
  });

  test('kills every task when less than the safety margin is left', () => {
    // free RAM = 16 x 0.05 = 0.8 < sm = 1.6
    assert.deepEqual(salamanderQos.check(view({ cpu: 0, ram: 0.95 }, 0.1, four)), [3, 2, 1, 0]);
  });

  test('never kills for CPU (it throttles instead); Salamander\'s reading of Cuckoo does', () => {
    const v = view({ cpu: 0.9, ram: 0 }, 0.1, four); // 8 cores demanded, 0.8 left
    assert.deepEqual(salamanderQos.check(v), []);
    assert.deepEqual(cuckooSalamanderReadingQos.check(v), [3, 2, 1, 0], 'only the margin is left: the container is killed');
    // cpu free 8 x 0.5 = 4, sm 0.8: limit 4 - 0.8 + 0.4 = 3.6 cores; 8 used -> kill t3, t2 (4 left > 3.6) and t1.
    assert.deepEqual(cuckooSalamanderReadingQos.check(view({ cpu: 0.5, ram: 0 }, 0.1, four)), [3, 2, 1]);
  });
});

describe("Cuckoo's QoS controller as Cuckoo III-D states it", () => {
  const four = [1, 2, 3, 4].map(() => ({ cpu: 2, ram: 3 }));

  test('a CPU violation short of starvation is throttled, not killed (Salamander\'s reading kills)', () => {
    // 8 cores demanded, 4 left, margin 0.8 core: the regular customers eat the whole margin and more, yet 4 > 0.8.
    const v = view({ cpu: 0.5, ram: 0 }, 0.1, four);
    assert.deepEqual(cuckooQos.check(v), []);
    assert.notDeepEqual(cuckooSalamanderReadingQos.check(v), []);
  });

  test('CPU starvation (only the margin left) kills the container: every task', () => {
    // 8 x (1 - 0.9) = 0.8 cores left = the margin: "only the safety margin resources are available".
    assert.deepEqual(cuckooQos.check(view({ cpu: 0.9, ram: 0 }, 0.1, four)).sort(), [0, 1, 2, 3]);
    assert.deepEqual(cuckooQos.check(view({ cpu: 0.89, ram: 0 }, 0.1, four)), [], 'a little more than the margin: throttled');
  });

  test('memory: acts only once the regular customers eat more than half the margin', () => {
    // sm = 4 GB; 12 GB free; tasks use 9: the regular customers have 3 of the 4 GB (ate 1 < 2): nothing.
    const three = [1, 2, 3].map(() => ({ cpu: 1, ram: 3 }));
    assert.deepEqual(cuckooQos.check(view({ cpu: 0, ram: 0.25 }, 0.25, three)), []);
    // 16 x 0.6 = 9.6 GB free: 9 used leaves them 0.6 of 4 GB (ate 3.4 > 2): kill.
    assert.notDeepEqual(cuckooQos.check(view({ cpu: 0, ram: 0.4 }, 0.25, three)), []);
  });

  test('memory: kills until the whole margin is free, where Salamander stops at half of it', () => {
    // sm = 4 GB, free 9.6 GB, 12 GB used. Salamander: down to 9.6 - 4 + 2 = 7.6 -> t3, t2 (6 left).
    // Cuckoo: down to 9.6 - 4 = 5.6 -> t3, t2, t1 (3 left).
    const v = view({ cpu: 0, ram: 0.4 }, 0.25, four);
    assert.deepEqual(salamanderQos.check(v), [3, 2]);
    assert.deepEqual(cuckooQos.check(v), [3, 2, 1]);
  });

  test('memory: the largest users first (a system memory killer), the latest among equals', () => {
    // RAM 2, 6, 2, 4 GB launched in that order; free 8, sm 1.6; 14 used, target 8 - 1.6 = 6.4:
    // Cuckoo kills t1 (6 GB: 8 left) then t3 (4 GB: 4 left); Salamander, latest first down to 7.2, kills t3, t2, t1.
    const mixed = [2, 6, 2, 4].map((ram) => ({ cpu: 1, ram }));
    const v = view({ cpu: 0, ram: 0.5 }, 0.1, mixed);
    assert.deepEqual(cuckooQos.check(v), [1, 3]);
    assert.deepEqual(salamanderQos.check(v), [3, 2, 1]);
    // Equal demands: latest first. 12 used, target 6.4: t3, t2.
    assert.deepEqual(cuckooQos.check(view({ cpu: 0, ram: 0.5 }, 0.1, four)), [3, 2]);
  });
});

describe('QosController.threshold agrees with check()', () => {
  // For random nodes: just above a metric's threshold (others idle) the controller kills, just below it
  // does not; an infinite threshold never kills whatever that metric's load.
  const controllers = [salamanderQos, cuckooQos, cuckooSalamanderReadingQos];
  let state = 12345;
  const rand = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (const q of controllers)
    test(q.name, () => {
      for (let n = 0; n < 300; n++) {
        const tasks = Array.from({ length: 1 + Math.floor(rand() * 5) }, () => ({ cpu: Math.ceil(rand() * 3), ram: Math.ceil(rand() * 4) }));
        const margin = [0, 0.05, 0.1, 0.3][Math.floor(rand() * 4)];
        for (const [m, metric] of (['cpu', 'ram'] as const).entries()) {
          const at = (u: number) => view({ cpu: 0, ram: 0, [metric]: u }, margin, tasks);
          if (q.check(at(0)).length > 0) continue; // already acting on an idle node: nothing to bracket
          const thr = q.threshold(at(0), m);
          if (thr === Infinity) {
            assert.deepEqual(q.check(at(1)), [], `${metric} never kills`);
            continue;
          }
          assert.ok(thr >= 0 && thr <= 1, `threshold ${thr}`);
          assert.deepEqual(q.check(at(thr - 1e-6)), [], `${metric} below ${thr}`);
          assert.notDeepEqual(q.check(at(Math.min(1, thr + 1e-6))), [], `${metric} above ${thr}`);
        }
      }
    });
});

describe('QoS in the simulator', () => {
  test('a RAM spike kills tasks in reverse scheduling order and they are relaunched on the freest node', () => {
    // Three long tasks of 4 GB start on a at slots 0, 1, 2; at slot 3 the regular customers take 70% of
    // a's RAM: 4.8 GB left, so the tasks started at slots 2 and 1 are killed (in that order) and
    // re-placed on the node with the most free capacity, c (then b), as remote tasks.
    const doc = oneJob([{ id: 'm', tasks: 3, demand: { cpu: 1, ram: 4 }, durationSeconds: 400, inputMB: 40 }], {
      nodes: [node('a'), node('b', { capacity: { cpu: 4, ram: 16 } }), node('c', { capacity: { cpu: 16, ram: 64 } })],
    });
    const plan = planOf(doc, [at('j/m/0@a:0'), at('j/m/1@a:1'), at('j/m/2@a:2')]);
    const { sim, report } = runPlan(doc, plan, { a: { ram: step(0, 3, 0.7) } }, 'salamander', { qosPeriodSeconds: 50 }); // per-slot: the step holds
    assert.equal(report.relaunches, 2);
    assert.deepEqual(Array.from(sim.kills), [0, 1, 1]);
    assert.equal(sim.node[0], 0, 'the earliest task keeps running on a');
    // Killed at t = 150: task 2 first goes to c (most free), then task 1 to c as well (still the freest).
    assert.equal(sim.node[2], 2);
    assert.equal(sim.node[1], 2);
    assert.equal(sim.launchSeq[2] < sim.launchSeq[1], true, 'relaunched in kill order: latest scheduled first');
    assert.equal(sim.startedAt[1], 150);
    assert.equal(report.remoteTasks, 2);
    // Each relaunched task fetched its 40 MB chunk over c's 80 Mbps link, one after the other.
    assert.ok(Math.abs(sim.endTime[2] - (150 + 4 + 400)) < 1e-9, `task 2 ended ${sim.endTime[2]}`);
    assert.ok(Math.abs(sim.endTime[1] - (150 + 8 + 400)) < 1e-9, `task 1 ended ${sim.endTime[1]}`);
    assert.equal(report.interferenceSlots, 1, 'the spike slot on a counts once');
  });

  test('Salamander\'s reading of Cuckoo kills on a CPU violation; Cuckoo\'s own text and Salamander throttle', () => {
    const doc = oneJob([{ id: 'm', tasks: 2, demand: { cpu: 2, ram: 1 }, durationSeconds: 100 }]);
    const plan = planOf(doc, [at('j/m/0@a:0'), at('j/m/1@a:0')]);
    const actual = { a: { cpu: step(0, 1, 0.6) } }; // 1.6 cores left from t = 50 for 4 demanded
    const reading = runPlan(doc, plan, actual, 'cuckoo-salamander-reading').report;
    const cuckoo = runPlan(doc, plan, actual, 'cuckoo').report;
    const salamander = runPlan(doc, plan, actual, 'salamander').report;
    assert.ok(reading.relaunches >= 1, `cuckoo-salamander-reading relaunched ${reading.relaunches}`);
    assert.equal(cuckoo.relaunches, 0);
    assert.equal(salamander.relaunches, 0);
    assert.ok(salamander.makespanSeconds > 100, 'throttled, so later than planned');
    void flat;
  });
});
