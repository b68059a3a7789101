/**
 * The equations of ACO-BP (Rathinaraja et al., seeds/003, section III), on plain arrays indexed by metric
 * (the paper's two: vCPU and memory; any number here). Each function says which equation it is and how
 * the paper's text or tables decided a reading where the printed formula is ambiguous.
 */

/**
 * Eq. 2: RU_i, the product over metrics of the bin's used share (a bin 90% full on vCPU and 10% on memory
 * has RU 0.09, L113). A metric the bin does not have (capacity 0) is left out. Note: the paper's Table 2
 * lists the mean of the two shares instead (40 of its 42 rows); Fallow follows the equation and the text.
 */
export function resourceUtilisation(used: ArrayLike<number>, capacity: ArrayLike<number>): number {
  let ru = 1;
  for (let m = 0; m < capacity.length; m++) if (capacity[m] > 0) ru *= Math.min(1, used[m] / capacity[m]);
  return ru;
}

/**
 * Eq. 7: Maxpos, the most tasks of one job a bin can hold, floor(min over metrics of capacity / demand):
 * the reading that gives every cell of Table 3 (the printed formula divides a sum by a capacity).
 * A task needing nothing fits without limit (Infinity); one needing a metric the bin lacks fits 0 times.
 */
export function maxpos(capacity: ArrayLike<number>, demand: ArrayLike<number>): number {
  let n = Infinity;
  for (let m = 0; m < demand.length; m++) if (demand[m] > 0) n = Math.min(n, Math.floor(capacity[m] / demand[m] + 1e-9));
  return n;
}

/**
 * Eq. 6: a job keeps within its fair share when the product over metrics of its share of the cluster
 * (allocated / total) is at most the product of equal shares, (1 / activeJobs) per metric. The printed
 * right-hand side is in absolute units; its words (L194) say "equal share", which this is.
 */
export function withinFairShare(allocated: ArrayLike<number>, total: ArrayLike<number>, activeJobs: number): boolean {
  if (activeJobs <= 1) return true;
  let share = 1;
  let fair = 1;
  for (let m = 0; m < total.length; m++) {
    if (total[m] <= 0) continue;
    share *= allocated[m] / total[m];
    fair /= activeJobs;
  }
  return share <= fair + 1e-12;
}

/**
 * The most of `upTo` more tasks of `demand` a job holding `allocated` may take and stay within its fair
 * share (Eq. 6). The share grows with the count, so bisect.
 */
export function mostWithinFairShare(allocated: ArrayLike<number>, demand: ArrayLike<number>, upTo: number, total: ArrayLike<number>, activeJobs: number): number {
  const trial = new Float64Array(total.length);
  const fits = (n: number) => {
    for (let m = 0; m < total.length; m++) trial[m] = allocated[m] + n * demand[m];
    return withinFairShare(trial, total, activeJobs);
  };
  let lo = 0;
  let hi = Math.max(0, upTo);
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Eq. 8: MOR_g, each rack's share of a job's map output so far; the preferred rack is the largest share
 * (ties: the first rack in node order). Nodes without a rack form one rack named ''.
 */
export function rackShares(outputByNode: ArrayLike<number>, racks: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  let total = 0;
  for (let k = 0; k < racks.length; k++) {
    out.set(racks[k], (out.get(racks[k]) ?? 0) + outputByNode[k]);
    total += outputByNode[k];
  }
  if (total > 0) for (const [r, v] of out) out.set(r, v / total);
  return out;
}

/**
 * Eq. 9 and Pref_VM: in the preferred rack, the nodes sorted by their share of the job's map output (MOV,
 * descending; ties by node order), of which the first `share` (the paper's top 50%, at least one) may run
 * the job's reduces.
 */
export function preferredBins(outputByNode: ArrayLike<number>, racks: readonly string[], share: number): { rack: string; bins: number[] } {
  const mor = rackShares(outputByNode, racks);
  let rack = racks[0];
  for (const [r, v] of mor) if (v > (mor.get(rack) ?? 0)) rack = r;
  const inRack: number[] = [];
  for (let k = 0; k < racks.length; k++) if (racks[k] === rack) inRack.push(k);
  inRack.sort((a, b) => outputByNode[b] - outputByNode[a] || a - b);
  return { rack, bins: inRack.slice(0, Math.max(1, Math.ceil(inRack.length * share))) };
}
