/**
 * Definition 5 and Eq. 6-7: the feasible adjustment strategies of one overloaded period and the one SMR
 * applies. A strategy Js is a minimal subset of the jobs Ju booked in the period whose removal (their
 * latest start is advanced so they end before it, Eq. 5) brings every resource back within capacity.
 */

/** Which end of the Eq. 7 score wins: the text's minimum (protects valuable jobs) or Alg. 1's literal maxPf. */
export type PfChoice = 'min' | 'max';

export interface Overload {
  /** Jobs booked in the period (Ju). */
  jobs: number[];
  /** held[u * R + r]: what Ju[u] holds of resource r in the period. */
  held: Float64Array;
  /** excess[r]: load above capacity (0 where within). */
  excess: Float64Array;
  R: number;
}

const EPS = 1e-6;

/**
 * Enumerating every minimal subset is exponential in |Ju|, so CL is sampled: for each job of Ju as a
 * seed, the cover is completed greedily in increasing (and, separately, decreasing) Sp order and then
 * pruned to a minimal one. That yields up to 2|Ju| distinct strategies, among them the cheapest greedy
 * cover. Eq. 7's `lastsize` (what is left of the period's resources) is the same for every strategy of a
 * period, so it cannot change the choice and is left out; ties go to the cover that moves the fewest
 * resources, then to the fewest jobs.
 */
export function chooseAdjustment(o: Overload, sp: ArrayLike<number>, choice: PfChoice): number[] {
  const n = o.jobs.length;
  const { R } = o;
  const spOf = (u: number) => sp[o.jobs[u]];
  let spU = 0;
  for (let u = 0; u < n; u++) spU += spOf(u);
  const size = (u: number) => {
    let s = 0;
    for (let r = 0; r < R; r++) if (o.excess[r] > 0) s += o.held[u * R + r] / o.excess[r];
    return s;
  };
  const sizes = Array.from({ length: n }, (_, u) => size(u));
  // Cheap first, and among equally cheap the ones that relieve the period most.
  const asc = Array.from({ length: n }, (_, u) => u).sort((a, b) => spOf(a) - spOf(b) || sizes[b] - sizes[a] || a - b);
  const desc = [...asc].reverse();

  const sum = new Float64Array(R);
  const covered = () => {
    for (let r = 0; r < R; r++) if (sum[r] + EPS < o.excess[r]) return false;
    return true;
  };
  const droppable = (u: number) => {
    for (let r = 0; r < R; r++) if (sum[r] - o.held[u * R + r] + EPS < o.excess[r]) return false;
    return true;
  };
  const add = (u: number, sign: number) => {
    for (let r = 0; r < R; r++) sum[r] += sign * o.held[u * R + r];
  };

  let best: number[] = [];
  let bestPf = 0;
  let bestMoved = Infinity;
  const seen = new Set<string>();
  for (const order of [asc, desc]) {
    for (let seed = 0; seed < n; seed++) {
      sum.fill(0);
      const inSet = new Uint8Array(n);
      inSet[seed] = 1;
      add(seed, 1);
      for (const u of order) {
        if (covered()) break;
        if (!inSet[u]) (inSet[u] = 1), add(u, 1);
      }
      if (!covered()) continue;
      // Minimal (Definition 5): drop the members the rest can do without, dearest first.
      for (const u of desc) if (inSet[u] && droppable(u)) (inSet[u] = 0), add(u, -1);
      const members: number[] = [];
      for (let u = 0; u < n; u++) if (inSet[u]) members.push(u);
      const key = members.join(',');
      if (seen.has(key)) continue;
      seen.add(key);
      let spS = 0;
      let moved = 0;
      for (const u of members) (spS += spOf(u)), (moved += sizes[u]);
      const pf = spU > 0 ? spS / spU : 0; // Eq. 7 without the common lastsize factor
      const better =
        best.length === 0 ||
        (choice === 'min' ? pf < bestPf - 1e-12 : pf > bestPf + 1e-12) ||
        (Math.abs(pf - bestPf) <= 1e-12 && (moved < bestMoved - 1e-12 || (Math.abs(moved - bestMoved) <= 1e-12 && members.length < best.length)));
      if (better) {
        best = members;
        bestPf = pf;
        bestMoved = moved;
      }
    }
  }
  return best.map((u) => o.jobs[u]);
}
