/**
 * Simulator.fork (simulate/fork.ts): a copy of a run taken between two instants goes on exactly as the run would,
 * and leaves the run itself undisturbed. POSUM's replayed look-ahead simulates the past once and forks it per
 * member; its exactness rests on this.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadInstance, Model } from '../../src/engine/model/model';
import { InstanceDoc, JobSpec } from '../../src/engine/model/types';
import { HadoopPolicy } from '../../src/engine/policies/hadoop/hadoop';
import { PosumAllocationPolicy } from '../../src/engine/policies/posum/allocation';
import { ProvisioningPolicy } from '../../src/engine/policies/posum/provisioning';
import type { Provisioner } from '../../src/engine/simulate/driver';
import type { SimulatorView } from '../../src/engine/simulate/host';
import { getQos } from '../../src/engine/qos';
import { Random } from '../../src/engine/random';
import type { SimReport } from '../../src/engine/simulation';
import { SimOptions, Simulator } from '../../src/engine/simulate/simulator';
import { ActualUsage } from '../../src/engine/simulate/usage';

const SLOTS = 120;
const SLOT = 10;

/** Fixed nodes under a moving load (so the QoS controller kills), leasable ones, links, inputs to fetch, reduces. */
function instance(seed: number): InstanceDoc {
  const rng = new Random(seed);
  const load = () => Array.from({ length: SLOTS }, (_, t) => Math.min(0.95, Math.max(0, 0.5 + 0.4 * Math.sin((t + seed * 5) / 6) + 0.2 * (rng.next() - 0.5))));
  const jobs: JobSpec[] = Array.from({ length: 12 }, (_, n) => {
    const stages: JobSpec['stages'] = [{ id: 'map', tasks: 2 + rng.int(6), demand: { cpu: 1, ram: 1 }, durationSeconds: 20 + 10 * rng.int(6), inputMB: 64 }];
    if (rng.next() < 0.7) stages.push({ id: 'reduce', tasks: 1 + rng.int(2), demand: { cpu: 1, ram: 2 }, after: ['map'], durationSeconds: 30 + 10 * rng.int(4) });
    const releaseSlot = rng.int(40);
    const deadline = n % 2 === 0 ? { deadlineSlot: releaseSlot + 5 + rng.int(15) } : {};
    return { id: `j${n}`, class: n % 2 === 0 ? 'deadline' : 'batch', releaseSlot, ...deadline, stages };
  });
  return {
    format: 'fallow.instance/v1',
    name: `fork-${seed}`,
    horizon: { slots: SLOTS, slotSeconds: SLOT },
    metrics: ['cpu', 'ram'],
    nodes: [
      ...Array.from({ length: 4 }, (_, k) => ({ id: `f${k}`, capacity: { cpu: 4, ram: 8 }, costPerHour: 1, bandwidthMbps: 200 + 100 * k })),
      ...Array.from({ length: 2 }, (_, k) => ({ id: `l${k}`, capacity: { cpu: 4, ram: 8 }, costPerHour: 3, bandwidthMbps: 400, lease: { startupSeconds: 20, minLeaseSeconds: 60 } })),
    ],
    usage: Object.fromEntries(Array.from({ length: 4 }, (_, k) => [`f${k}`, { cpu: load(), ram: load() }])),
    jobs,
  };
}

type Make = (model: Model) => Simulator;
const runs: [string, Make][] = [
  ['edls-sh leasing with plus-x, Salamander checking every 0.1 s', (model) => {
    const policy = new PosumAllocationPolicy(model, 'edls-sh');
    return new Simulator(model, new ActualUsage(model, model.doc.usage), policy, { qos: getQos('salamander'), seed: 3, provisioner: new ProvisioningPolicy(model, 'plus-x') });
  }],
  ['hadoop under Cuckoo with runtime noise', (model) => {
    const options: SimOptions = { qos: getQos('cuckoo'), seed: 5, runtimeTruth: { runtimeSigma: 0.3 } };
    return new Simulator(model, new ActualUsage(model, model.doc.usage), new HadoopPolicy(model), options);
  }],
];

/** The report without the wall-clock time it took. */
const outcome = (r: SimReport) => ({ ...r, elapsedMs: 0 });

describe('Simulator.fork', () => {
  for (const [name, make] of runs)
    test(`a fork goes on as the run would, and the run goes on undisturbed: ${name}`, () => {
      for (const seed of [1, 2]) {
        const model = loadInstance(instance(seed));
        const whole = outcome(make(model).run());
        assert.ok(whole.tasks > 0 && whole.makespanSeconds > 200, `seed ${seed}: a run worth forking (${whole.makespanSeconds} s)`);
        assert.ok(whole.relaunches > 0 || whole.remoteTasks > 0, `seed ${seed}: kills or remote reads to carry over`);
        for (const at of [0, 95, 250.05, 400]) {
          const sim = make(model);
          sim.begin();
          sim.advance(at);
          const fork = sim.fork();
          assert.deepEqual(outcome(fork.runToEnd()), whole, `seed ${seed}: the fork taken at ${at} s`);
          assert.deepEqual(outcome(sim.runToEnd()), whole, `seed ${seed}: the run forked at ${at} s`);
        }
      }
    });

  for (const [name, make] of runs)
    test(`a copy without samples (forkWithoutSamples) ends as the run would, at the same event, cut at a horizon or not: ${name}`, () => {
      // Its sample events are kept out of the event queue (Simulator.sampleAt): a run cut at a horizon stops at the
      // same event (the clock and the count of events say so), and a copy of the copy (POSUM's look-ahead) too.
      for (const seed of [1, 2]) {
        const model = loadInstance(instance(seed));
        for (const stopAt of [undefined, 333.3, 615]) {
          const cut = (sim: Simulator) => {
            (sim.options as { stopAtSeconds?: number }).stopAtSeconds = stopAt;
            return sim;
          };
          const end = (sim: Simulator) => ({ now: sim.now, events: sim.report().events, ends: sim.ends(), state: [...sim.state], endTime: [...sim.endTime] });
          const whole = cut(make(model));
          const wholeReport = outcome(whole.run());
          const expected = end(whole);
          assert.deepEqual({ endSeconds: expected.ends.endSeconds, makespanSeconds: expected.ends.makespanSeconds }, { endSeconds: wholeReport.jobs.map((j) => j.endSeconds), makespanSeconds: wholeReport.makespanSeconds }, 'ends() as the report');
          for (const at of [0, 95, 250.05]) {
            const sim = cut(make(model));
            sim.begin();
            sim.advance(at);
            const copy = sim.forkWithoutSamples();
            const again = copy.fork();
            assert.equal(copy.nextEventTime(), sim.nextEventTime(), `seed ${seed}, horizon ${stopAt}, at ${at} s: the next event`);
            while (copy.advance());
            assert.deepEqual(end(copy), expected, `seed ${seed}, horizon ${stopAt}: the copy taken at ${at} s`);
            while (again.advance());
            assert.deepEqual(end(again), expected, `seed ${seed}, horizon ${stopAt}: the copy of the copy taken at ${at} s`);
            assert.deepEqual(outcome(sim.runToEnd()), wholeReport, `seed ${seed}, horizon ${stopAt}: the run copied at ${at} s`);
          }
        }
      }
    });

  test('a copy taken in the provisioner\'s decide() finishes that event with its own provisioner (forkInProvision)', () => {
    // plus-x until `at`, then minus-x: switched in one run; in another, copied at that decide() with the copy
    // switched and the run going on with plus-x (as POSUM's look-ahead parts members).
    const parted: Simulator[] = [];
    class Switching implements Provisioner {
      readonly name = 'switching';
      readonly periodSeconds = 30;
      switched = false;
      constructor(private readonly a: ProvisioningPolicy, private readonly b: ProvisioningPolicy, private readonly at: number, private readonly copyAt: boolean) {}
      decide(sim: SimulatorView): void {
        if (!this.switched && sim.now >= this.at) {
          if (!this.copyAt) this.switched = true;
          else if (parted.length === 0) {
            const copy = (sim as Simulator).forkInProvision();
            (copy.options.provisioner as Switching).switched = true;
            parted.push(copy);
          }
        }
        (this.switched ? this.b : this.a).decide(sim);
      }
    }
    for (const seed of [1, 2]) {
      const model = loadInstance(instance(seed));
      const make = (at: number, copyAt: boolean) =>
        new Simulator(model, new ActualUsage(model, model.doc.usage), new PosumAllocationPolicy(model, 'edls-sh'), {
          qos: getQos('salamander'),
          seed: 3,
          provisioner: new Switching(new ProvisioningPolicy(model, 'plus-x'), new ProvisioningPolicy(model, 'minus-x'), at, copyAt),
        });
      const plusX = outcome(make(Infinity, false).run());
      for (const at of [0, 95, 240]) {
        const switchedThere = outcome(make(at, false).run());
        assert.notDeepEqual(switchedThere, plusX, `seed ${seed}, ${at} s: the switch changes the run`);
        parted.length = 0;
        const sim = make(at, true);
        const r = outcome(sim.run());
        assert.equal(parted.length, 1, `seed ${seed}, ${at} s: one copy`);
        assert.deepEqual(r, plusX, `seed ${seed}, ${at} s: the run goes on with its own provisioner`);
        assert.deepEqual(outcome(parted[0].runToEnd()), switchedThere, `seed ${seed}, ${at} s: the copy goes on as the run switched there`);
      }
    }
  });

  test('a fork is steered apart: changing its driver changes its run only', () => {
    const model = loadInstance(instance(4));
    const make = () => new Simulator(model, new ActualUsage(model, model.doc.usage), new PosumAllocationPolicy(model, 'hsrtf'), { qos: getQos('none'), seed: 1 });
    const whole = outcome(make().run());
    const sim = make();
    sim.begin();
    sim.advance(100);
    const fork = sim.fork();
    assert.notEqual(fork.driver, sim.driver);
    // Shared: what no run changes.
    assert.equal(fork.model, sim.model);
    assert.equal(fork.usage, sim.usage);
    fork.timer(fork.now, 0); // a spurious timer: the fork's own queue only
    fork.state.fill(0, 0, 1);
    assert.deepEqual(outcome(sim.runToEnd()), whole);
  });
});
