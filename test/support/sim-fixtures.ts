/** Small handmade instances and runners for the simulator tests (numbers checkable by hand). */
import { loadInstance, Model } from '../../src/engine/model/model';
import { InstanceDoc, NodeSpec, PlanDoc, StageSpec } from '../../src/engine/model/types';
import { PlanDriver } from '../../src/engine/simulate/plan-driver';
import { SimOptions, Simulator } from '../../src/engine/simulate/simulator';
import { ActualUsage, UsageDoc } from '../../src/engine/simulate/usage';
import { getQos } from '../../src/engine/qos';
import { Driver } from '../../src/engine/simulate/driver';

export function node(id: string, extra: Partial<NodeSpec> = {}): NodeSpec {
  return { id, capacity: { cpu: 4, ram: 16 }, speed: 1, maxTasks: 4, bandwidthMbps: 80, ...extra };
}

export function oneJob(stages: StageSpec[], extra: Partial<InstanceDoc> = {}): InstanceDoc {
  return {
    format: 'fallow.instance/v1',
    name: 'sim-hand',
    horizon: { slots: 20, slotSeconds: 50 },
    metrics: ['cpu', 'ram'],
    nodes: [node('a'), node('b')],
    jobs: [{ id: 'j', stages }],
    ...extra,
  };
}

/** Flat series of `slots` values. */
export function flat(v: number, slots = 20): number[] {
  return Array(slots).fill(v);
}

/** `v0` for the first `n` slots, then `v1`. */
export function step(v0: number, n: number, v1: number, slots = 20): number[] {
  return Array.from({ length: slots }, (_, t) => (t < n ? v0 : v1));
}

/** `extra`: further simulator options (e.g. qosPeriodSeconds: the slot length for the per-slot controller). */
export function runPlan(doc: InstanceDoc, plan: PlanDoc, actual: UsageDoc | undefined, qos = 'salamander', extra: Partial<SimOptions> = {}): { sim: Simulator; model: Model; report: ReturnType<Simulator['run']> } {
  const model = loadInstance(doc);
  const sim = new Simulator(model, new ActualUsage(model, actual ?? doc.usage), new PlanDriver(model, plan), { ...extra, qos: getQos(qos) });
  return { sim, model, report: sim.run() };
}

export function runDriver(doc: InstanceDoc, make: (m: Model) => Driver, actual?: UsageDoc, qos = 'cuckoo', seed = 1, extra: Partial<SimOptions> = {}) {
  const model = loadInstance(doc);
  const sim = new Simulator(model, new ActualUsage(model, actual ?? doc.usage), make(model), { ...extra, qos: getQos(qos), seed });
  return { sim, model, report: sim.run() };
}

/** The report without its wall-clock field (for determinism comparisons). */
export function stable<T extends { elapsedMs: number }>(r: T): Omit<T, 'elapsedMs'> {
  const { elapsedMs: _, ...rest } = r;
  return rest;
}
