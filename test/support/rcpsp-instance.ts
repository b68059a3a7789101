import assert from 'node:assert/strict';
import { Model } from '../../src/engine/model/model';
import { InstanceDoc, JobSpec } from '../../src/engine/model/types';
import { Random } from '../../src/engine/random';
import { decodeSolution } from '../../src/engine/strategies/exact/decode';
import { runHighs } from '../../src/engine/strategies/exact/highs-runner';
import { buildMilp } from '../../src/engine/strategies/exact/model-builder';
import { highsToTheEnd } from './work-limit';

const SLOT = 60;

/**
 * A random RCPSP-shaped instance (one node, one task per stage: where propagation and the SAT search
 * apply): `jobCount` projects of 3-5 activities with random precedences, cpu 1-4 of 4 and ram 0-4 of 5.
 */
export function rcpspInstance(seed: number, jobCount = 2): InstanceDoc {
  const rng = new Random(seed);
  const jobs: JobSpec[] = Array.from({ length: jobCount }, (_, j) => {
    const n = 3 + rng.int(3);
    return {
      id: `p${j}`,
      stages: Array.from({ length: n }, (_, i) => {
        const after = Array.from({ length: i }, (_, a) => `a${a}`).filter(() => rng.next() < 0.35);
        return {
          id: `a${i}`,
          tasks: 1,
          demand: { cpu: 1 + rng.int(4), ram: rng.int(5) },
          durationSeconds: (1 + rng.int(4)) * SLOT,
          ...(after.length > 0 ? { after } : {}),
        };
      }),
    };
  });
  return {
    format: 'fallow.instance/v1',
    name: `rcpsp-${seed}`,
    horizon: { slots: 60, slotSeconds: SLOT },
    metrics: ['cpu', 'ram'],
    nodes: [{ id: 'n1', capacity: { cpu: 4, ram: 5 } }],
    jobs,
  };
}

/**
 * The optimum makespan by the MILP alone (weighted form: no propagation), over the window up to the sum of
 * the durations, which every instance fits (one activity after another, each alone within the capacity).
 */
export async function milpOptimum(model: Model): Promise<number> {
  const serial = model.stages.reduce((a, s) => a + s.dur[0], 0);
  const built = buildMilp(model, { horizon: Math.min(model.T, serial), weighted: true, makespanLower: 0, maxColumns: 1e5, maxNonzeros: 1e6, maxCliqueNonzeros: 1e5 });
  assert.ok(built.ok);
  // A reference optimum, not a timed target: run to the end, so a busy machine cannot fail the test.
  const out = await runHighs(built.problem, highsToTheEnd({ mip_rel_gap: 0, mip_abs_gap: 0.999 }));
  assert.equal(out.status, 'optimal');
  const s = decodeSolution(model, built.layout, out.colValue!)!;
  assert.equal(s.scheduledTasks(), model.nTasks);
  return s.makespan();
}
