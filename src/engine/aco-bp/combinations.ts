import { resourceUtilisation } from './equations';

/** A bin's combination (Eq. 1): how many ready tasks of each job it takes now, and its RU (Eq. 2) once they run. */
export interface Combination {
  counts: Int32Array;
  ru: number;
}

export interface BinRoom {
  capacity: Float64Array;
  /** Demand of what already runs on the bin now, per metric (part of RU_i, which counts every running task). */
  used: Float64Array;
  /** Tasks the bin may still start (maxTasks minus those running; Infinity without a limit). */
  slotsLeft: number;
}

/**
 * Algorithm 1, step 2 for one bin: the maximal combinations (no job could add one more task) of at most
 * caps[j] tasks of each job that fit what is free, ranked by RU; the best `keep` of those above
 * `threshold`, or, when none reaches it, the best `keep` (a bin is not left idle for want of a good fit).
 * Only maximal combinations are listed: adding a task never lowers RU. Ties keep enumeration order
 * (jobs in the caller's order, more tasks of earlier jobs first), so the result is deterministic.
 */
export function topCombinations(
  bin: BinRoom,
  demands: readonly Float64Array[],
  caps: Int32Array,
  keep: number,
  threshold: number,
  maxEnumerated: number,
): Combination[] {
  const J = demands.length;
  const M = bin.capacity.length;
  const counts = new Int32Array(J);
  const load = Float64Array.from(bin.used);
  const best: Combination[] = [];
  let enumerated = 0;
  let slots = bin.slotsLeft;

  const fitsOneMore = (j: number): boolean => {
    if (counts[j] >= caps[j] || slots < 1) return false;
    for (let m = 0; m < M; m++) if (demands[j][m] > 0 && load[m] + demands[j][m] > bin.capacity[m] + 1e-9) return false;
    return true;
  };
  const add = (j: number, n: number) => {
    counts[j] += n;
    slots -= n;
    for (let m = 0; m < M; m++) load[m] += n * demands[j][m];
  };
  const offer = () => {
    enumerated++;
    let any = false;
    for (let j = 0; j < J; j++) {
      if (fitsOneMore(j)) return; // not maximal
      if (counts[j] > 0) any = true;
    }
    if (!any) return;
    const ru = resourceUtilisation(load, bin.capacity);
    if (best.length === keep && ru <= best[keep - 1].ru) return;
    let at = best.length;
    while (at > 0 && best[at - 1].ru < ru) at--;
    best.splice(at, 0, { counts: Int32Array.from(counts), ru });
    if (best.length > keep) best.pop();
  };
  const visit = (j: number) => {
    if (enumerated >= maxEnumerated) return;
    if (j === J) return offer();
    // The most tasks of job j that fit on top of jobs 0..j-1, then fewer, leaving room to later jobs.
    let most = 0;
    while (fitsOneMore(j)) add(j, 1), most++;
    for (let n = most; n >= 0; n--) {
      visit(j + 1);
      if (n > 0) add(j, -1);
      if (enumerated >= maxEnumerated) break;
    }
  };
  visit(0);
  const above = best.filter((c) => c.ru > threshold);
  return above.length > 0 ? above : best;
}
