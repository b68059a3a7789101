/**
 * Replaying against what tasks really take (issue 23): true per-stage seconds replace the instance's, a
 * lognormal spread multiplies each task's runtime by a factor of mean 1 drawn from the seed, and bad truth
 * is named by path.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ValidationError } from '../../src/engine/model/errors';
import { loadInstance } from '../../src/engine/model/model';
import { InstanceDoc } from '../../src/engine/model/types';
import { getQos } from '../../src/engine/qos';
import { validateRuntimeTruth } from '../../src/engine/simulation';
import { Driver, RuntimeTruth, Simulator } from '../../src/engine/simulate/simulator';
import { ActualUsage } from '../../src/engine/simulate/usage';

/** n nodes of one CPU; one stage of n tasks of 10 s (speed 2 halves a work-based stage's time). */
function instance(n: number, byWork = false): InstanceDoc {
  return {
    format: 'fallow.instance/v1',
    name: 'truth',
    horizon: { slots: 100, slotSeconds: 10 },
    metrics: ['cpu'],
    nodes: Array.from({ length: n }, (_, k) => ({ id: `n${k}`, capacity: { cpu: 1 }, speed: byWork ? 2 : 1 })),
    jobs: [{ id: 'j', stages: [{ id: 's', tasks: n, demand: { cpu: 1 }, ...(byWork ? { work: 20 } : { durationSeconds: 10 }) }] }],
  };
}

/** Task i on node i at time 0. */
const oneEach: Driver = {
  name: 'one-each',
  mode: 'policy',
  prepare: () => {},
  onReady: () => {},
  onKilled: () => {},
  dispatch: (sim) => {
    for (let i = 0; i < sim.model.nTasks; i++) if (sim.node[i] < 0 && sim.state[i] === 1) sim.launch(i, i);
  },
};

function run(doc: InstanceDoc, runtimeTruth: RuntimeTruth, seed = 1): Simulator {
  const model = loadInstance(doc);
  const sim = new Simulator(model, new ActualUsage(model, undefined), oneEach, { qos: getQos('none'), seed, runtimeTruth });
  sim.run();
  return sim;
}

describe('runtime truth in the simulator', () => {
  test('true seconds replace the stage\'s (seconds on a node of speed 1 for a work-based stage)', () => {
    assert.deepEqual(Array.from(run(instance(2), {}).endTime), [10, 10]);
    assert.deepEqual(Array.from(run(instance(2), { trueSeconds: { j: { s: 25 } } }).endTime), [25, 25]);
    assert.deepEqual(Array.from(run(instance(2, true), { trueSeconds: { j: { s: 25 } } }).endTime), [12.5, 12.5]);
  });

  test('a lognormal spread of mean 1, the same for the same seed', () => {
    const a = Array.from(run(instance(2000), { runtimeSigma: 0.5 }, 3).endTime);
    const b = Array.from(run(instance(2000), { runtimeSigma: 0.5 }, 3).endTime);
    const c = Array.from(run(instance(2000), { runtimeSigma: 0.5 }, 4).endTime);
    assert.deepEqual(a, b);
    assert.notDeepEqual(a, c);
    const mean = a.reduce((x, y) => x + y, 0) / a.length;
    assert.ok(Math.abs(mean - 10) < 0.5, `mean ${mean}`);
    const logs = a.map((x) => Math.log(x / 10));
    const m = logs.reduce((x, y) => x + y, 0) / logs.length;
    const sd = Math.sqrt(logs.reduce((x, y) => x + (y - m) ** 2, 0) / (logs.length - 1));
    assert.ok(Math.abs(sd - 0.5) < 0.05, `log-scale spread ${sd}`);
  });

  test('bad truth is named by path, every problem at once', () => {
    const model = loadInstance(instance(2));
    try {
      validateRuntimeTruth(model, { j: { s: 0, t: 5 }, k: {} }, -1);
      assert.fail('accepted');
    } catch (e) {
      assert.ok(e instanceof ValidationError);
      assert.deepEqual(e.issues.map((i) => i.path).sort(), ['runtimeSigma', 'trueSeconds.j.s', 'trueSeconds.j.t', 'trueSeconds.k']);
    }
    assert.deepEqual(validateRuntimeTruth(model, { j: { s: 7 } }, 0.2), { trueSeconds: { j: { s: 7 } }, runtimeSigma: 0.2 });
  });
});
