/** A small POSUM day for the tests of its look-ahead (posum-fork-live, posum-threads). */
import { InstanceDoc, JobSpec } from '../../src/engine/model/types';
import { Random } from '../../src/engine/random';
import { UsageDoc } from '../../src/engine/simulate/usage';

const SLOTS = 200;
export const SLOT = 10;

/**
 * 4 fixed nodes under a load whose actual day is off the forecast (so that the replay, on the forecast after the
 * decision's slot, is not the live run: forking the live run at the decision itself would not do), 2 leasable ones;
 * 12 jobs of maps and reduces arriving over the first 40 slots, half with deadlines.
 */
export function posumInstance(seed: number): { doc: InstanceDoc; actual: UsageDoc } {
  const rng = new Random(seed);
  const load = () => Array.from({ length: SLOTS }, (_, t) => Math.min(0.9, Math.max(0, 0.35 + 0.3 * Math.sin((t + seed * 7) / 9) + 0.2 * (rng.next() - 0.5))));
  const jobs: JobSpec[] = Array.from({ length: 12 }, (_, n) => {
    const stages: JobSpec['stages'] = [{ id: 'map', tasks: 1 + rng.int(6), demand: { cpu: 1, ram: 1 }, durationSeconds: 20 + 10 * rng.int(8) }];
    if (rng.next() < 0.6) stages.push({ id: 'reduce', tasks: 1 + rng.int(2), demand: { cpu: 1, ram: 2 }, after: ['map'], durationSeconds: 30 + 10 * rng.int(6) });
    const releaseSlot = rng.int(40);
    const deadline = n % 2 === 0 ? releaseSlot + 6 + rng.int(20) : null;
    return { id: `j${n}`, class: deadline === null ? 'batch' : 'deadline', releaseSlot, ...(deadline !== null ? { deadlineSlot: deadline } : {}), stages };
  });
  const usage: UsageDoc = {};
  const actual: UsageDoc = {};
  for (let k = 0; k < 4; k++) {
    usage[`f${k}`] = { cpu: load(), ram: load() };
    actual[`f${k}`] = { cpu: usage[`f${k}`].cpu.map((u, t) => Math.min(1, Math.max(0, u + 0.25 * Math.sin(t / 3 + k)))), ram: usage[`f${k}`].ram };
  }
  const doc: InstanceDoc = {
    format: 'fallow.instance/v1',
    name: `fork-live-${seed}`,
    horizon: { slots: SLOTS, slotSeconds: SLOT },
    metrics: ['cpu', 'ram'],
    nodes: [
      ...Array.from({ length: 4 }, (_, k) => ({ id: `f${k}`, capacity: { cpu: 4, ram: 8 }, costPerHour: 1 })),
      ...Array.from({ length: 2 }, (_, k) => ({ id: `l${k}`, capacity: { cpu: 4, ram: 8 }, costPerHour: 4, lease: { startupSeconds: 20, minLeaseSeconds: 120 } })),
    ],
    usage,
    jobs,
  };
  return { doc, actual };
}

