import type { Model } from '../model/model';

/** Where scheduled tasks with a known input block ran, relative to its replicas (ACO-BP Fig. 6, Hadoop's three levels). */
export interface LocalityCounts {
  /** On a node holding a replica. */
  nodeLocal: number;
  /** Not on a holder, but in the rack of one (a read over the rack's switch). */
  rackLocal: number;
  /** Neither (a read across racks). */
  remote: number;
}

/** The locality of every counted task whose stage gives `blocks`; null when no stage does (every read is local). */
export function localityOf(model: Model, node: Int32Array, counted: Uint8Array): LocalityCounts | null {
  if (!model.stages.some((s) => s.blocks)) return null;
  const out: LocalityCounts = { nodeLocal: 0, rackLocal: 0, remote: 0 };
  for (const s of model.stages) {
    if (!s.blocks) continue;
    for (let t = 0; t < s.tasks; t++) {
      const i = s.firstTask + t;
      if (!counted[i]) continue;
      out[localityLevel(model, s.blocks[t], node[i])]++;
    }
  }
  return out;
}

/** The level of a task on node `k` whose block lives on `replicas`. A node without a rack shares none. */
export function localityLevel(model: Model, replicas: Int32Array, k: number): keyof LocalityCounts {
  let rackLocal = false;
  const rack = model.racks[k];
  for (const r of replicas) {
    if (r === k) return 'nodeLocal';
    if (rack !== '' && model.racks[r] === rack) rackLocal = true;
  }
  return rackLocal ? 'rackLocal' : 'remote';
}
