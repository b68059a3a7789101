import type { Model } from '../model/model';
import { preferredBins } from './equations';
import type { AcoBpParams } from './params';

/** Whether a ready stage after others still waits for its preferred nodes (Eq. 8-9) after `waitedPeriods` decision periods. */
export function waitsForPreferred(model: Model, g: number, waitedPeriods: number, p: AcoBpParams): boolean {
  return model.stages[g].preds.length > 0 && waitedPeriods < p.reducePatiencePeriods;
}

/**
 * Pref_VM (Eq. 8-9) of a stage after others, as a node mask: the top `reduceBinShare` of the preferred
 * rack's nodes by the output its predecessor stages left on them (each task's outputMB, 1 when not given).
 * `nodeOf(i)`: where task i ran (-1: not yet).
 */
export function preferredMask(model: Model, g: number, nodeOf: (i: number) => number, p: AcoBpParams): Uint8Array {
  const output = new Float64Array(model.K);
  for (const q of model.stages[g].preds) {
    const pred = model.stages[q];
    for (let i = pred.firstTask; i < pred.firstTask + pred.tasks; i++) {
      const k = nodeOf(i);
      if (k >= 0) output[k] += pred.outputMB > 0 ? pred.outputMB : 1;
    }
  }
  const mask = new Uint8Array(model.K);
  for (const k of preferredBins(output, model.racks, p.reduceBinShare).bins) mask[k] = 1;
  return mask;
}

/**
 * Per node, how many of a stage's `waiting` ready tasks the node may take keeping locality (Eq. 5) and at
 * all. `localByNode`: ready tasks whose block the node holds (null: every node is local to every task);
 * `preferred`: the only nodes a stage waiting for its preferred nodes may use (null: any).
 */
export function stageCaps(K: number, waiting: number, localByNode: Int32Array | null, preferred: Uint8Array | null): { local: Int32Array; any: Int32Array } {
  const any = new Int32Array(K);
  const local = new Int32Array(K);
  for (let k = 0; k < K; k++) {
    any[k] = preferred && !preferred[k] ? 0 : waiting;
    local[k] = localByNode ? Math.min(localByNode[k], any[k]) : any[k];
  }
  return { local, any };
}
