/**
 * scaleInstance (harness/scale-instance.ts) as the service takes it: revenues in whole minor units of the currency
 * (the generator gives them in major units with cents, as gen-instance.py; the API refuses fractions), and the
 * instance's parts for a solve by reference (a cluster, a forecast of its regular load, a batch).
 */
import type { InstanceDoc } from '../src/engine/model/types';
import { scaleInstance, ScaleOptions } from './scale-instance';

export function serviceScaleInstance(o: ScaleOptions): InstanceDoc {
  const doc = scaleInstance(o);
  const minor = (v: number | undefined) => (v === undefined ? undefined : Math.round(v * 100));
  for (const job of doc.jobs) if (job.revenue) job.revenue = { onTime: minor(job.revenue.onTime), late: minor(job.revenue.late) };
  return doc;
}

/** The bodies of POST /v1/clusters, /v1/clusters/{id}/forecasts and /v1/batches that assemble `doc` again. */
export function instanceParts(doc: InstanceDoc): { cluster: Record<string, unknown>; forecast: Record<string, unknown>; batch: Record<string, unknown> } {
  return {
    cluster: { name: doc.name, metrics: doc.metrics, nodes: doc.nodes, ...(doc.network ? { network: doc.network } : {}) },
    forecast: { slotSeconds: doc.horizon.slotSeconds, slots: doc.horizon.slots, usage: doc.usage ?? {} },
    batch: { name: doc.name, jobs: doc.jobs },
  };
}
