import { Model } from '../model/model';
import { hostWeights } from './host-weights';
import { wrrPlacement, WrrResult } from './wrr-placement';

/**
 * What Cuckoo decides before any task runs (Cuckoo III-A steps 2-5): host weights from the forecast and
 * the safety margin (Alg. 1), then WRR chunk placement with replicas and accept/reject (Alg. 2). Shared by
 * the online policy (policies/cuckoo/) and the plan-producing strategy (strategies/cuckoo/), so a plan
 * and an online run of the same instance start from the same replicas and the same admission. It sits
 * below both families (with host-weights.ts and wrr-placement.ts), which never import each other.
 */
export function cuckooPlacement(model: Model): WrrResult & { hostWeights: Float64Array } {
  const w = hostWeights(model);
  return { ...wrrPlacement(model, w), hostWeights: w };
}
