import type { Random } from '../random';
import { mostWithinFairShare, resourceUtilisation } from './equations';
import type { AcoBpParams } from './params';
import type { BinRoom, Combination } from './combinations';

/** ACS local update of an edge an ant just took: it moves back towards tau0, so later ants explore others. */
export function localUpdate(tau: number, rho: number, tau0: number): number {
  return (1 - rho) * tau + rho * tau0;
}

/** ACS global update of an edge of the best-so-far path: evaporation plus a deposit of its quality, 1 / (1 + waste). */
export function globalUpdate(tau: number, rho: number, deposit: number): number {
  return (1 - rho) * tau + rho * deposit;
}

/** What the colony of one window shares with the rest of the decision: the ready tasks and each job's allocation. */
export interface PackingPool {
  demands: readonly Float64Array[];
  /** Ready tasks of each job not yet given to a bin. */
  remaining: Int32Array;
  /** Demand each job holds across the cluster (running and given so far), per metric: Eq. 6's numerator. */
  allocated: Float64Array[];
  /** The cluster's capacity per metric: Eq. 6's denominator. */
  total: Float64Array;
  /** |J| of Eq. 6: jobs with tasks running or ready. */
  activeJobs: number;
}

/**
 * Per bin of a window, how a picked combination is repaired once cut (optional: without it a cut
 * combination stays cut): `caps[b][j]`, the most tasks of job j the bin may take (its locality tier);
 * `fair[b]`, whether Eq. 6 binds on the bin (false where the decision relaxed it to keep the bin busy).
 */
export interface WindowLimits {
  caps: readonly Int32Array[];
  fair: readonly boolean[];
}

export interface WindowResult {
  /** Tasks of each job given to each bin of the window. */
  counts: Int32Array[];
  /** Sum over the window's bins of 1 - RU_i (Eq. 4), of the chosen counts. */
  waste: number;
  iterations: number;
}

/**
 * Algorithm 2: an Ant Colony System over one window of bins. Each bin offers up to `topCombinations`
 * combinations; an ant walks the bins in order and picks one per bin along the pheromone edges between
 * consecutive bins' combinations (5 x 5 per pair), weighted by the pheromone and the combination's RU.
 * A pick is cut to what is still ready and to Eq. 6 (a job past its fair share takes no more while another
 * job still has ready tasks), so ants compete for the same ready tasks. Objective (Eq. 3-4): least total
 * waste sum(1 - RU_i), then the least waste of one bin. Local update after every step, global update of
 * the best-so-far path after every iteration (ACS, the paper's reference [39]).
 */
export function packWindow(
  bins: readonly BinRoom[],
  candidates: readonly Combination[][],
  pool: PackingPool,
  p: AcoBpParams,
  rng: Random,
  limits?: WindowLimits,
): WindowResult {
  const W = bins.length;
  const C = p.topCombinations;
  const J = pool.demands.length;
  const M = pool.total.length;
  // tau[b][from][to]: edge from combination `from` of bin b-1 (C = the start) to combination `to` of bin b.
  const scratch = new Float64Array(M);
  const stride = (C + 1) * C;
  const tau = new Float64Array(W * stride);
  const greedy = walk(() => 0);
  const tau0 = 1 / (1 + greedy.waste * Math.max(1, W));
  tau.fill(tau0);
  let best = greedy;
  let iterations = 0;
  let stall = 0;
  for (; iterations < p.iterations && stall < p.stallIterations; iterations++) {
    let improved = false;
    for (let a = 0; a < p.ants; a++) {
      const path = walk((b, prev, weights) => choose(b, prev, weights));
      if (path.waste < best.waste - 1e-12 || (path.waste <= best.waste + 1e-12 && path.worst < best.worst - 1e-12)) {
        best = path;
        improved = true;
      }
    }
    // Global update: only the best-so-far path's edges.
    const deposit = 1 / (1 + best.waste);
    for (let b = 0, prev = C; b < W; b++) {
      const c = best.choice[b];
      if (c < 0) continue;
      const e = b * stride + prev * C + c;
      tau[e] = globalUpdate(tau[e], p.rho, deposit);
      prev = c;
    }
    stall = improved ? 0 : stall + 1;
  }
  return { counts: best.counts, waste: best.waste, iterations };

  function choose(b: number, prev: number, weights: Float64Array): number {
    const n = candidates[b].length;
    const base = b * stride + prev * C;
    let pick = -1;
    if (rng.next() < p.q0) {
      for (let c = 0; c < n; c++) if (weights[c] > 0 && (pick < 0 || tau[base + c] * weights[c] > tau[base + pick] * weights[pick])) pick = c;
    } else {
      let sum = 0;
      for (let c = 0; c < n; c++) sum += tau[base + c] * weights[c];
      let r = rng.next() * sum;
      for (let c = 0; c < n && pick < 0; c++) {
        r -= tau[base + c] * weights[c];
        if (r <= 0 && weights[c] > 0) pick = c;
      }
      if (pick < 0) for (let c = n - 1; c >= 0 && pick < 0; c--) if (weights[c] > 0) pick = c;
    }
    if (pick >= 0) tau[base + pick] = localUpdate(tau[base + pick], p.rho, tau0);
    return pick;
  }

  /** One ant's walk; `pick` chooses among a bin's combinations given their heuristic weights (0: unusable). */
  function walk(pick: (b: number, prev: number, weights: Float64Array) => number) {
    const remaining = Int32Array.from(pool.remaining);
    const allocated = pool.allocated.map((a) => Float64Array.from(a));
    const counts: Int32Array[] = [];
    const choice = new Int32Array(W).fill(-1);
    const weights = new Float64Array(C);
    const load = new Float64Array(M);
    let waste = 0;
    let worst = 0;
    let prev = C;
    for (let b = 0; b < W; b++) {
      const cut = candidates[b].map((c) => cutTo(c.counts, b, remaining, allocated));
      cut.forEach((x, c) => (weights[c] = x.ru > 0 ? Math.pow(x.ru, p.beta) : 0));
      for (let c = cut.length; c < C; c++) weights[c] = 0;
      const c = cut.length > 0 ? pick(b, prev, weights) : -1;
      const got = c >= 0 ? cut[c] : { counts: new Int32Array(J), ru: 0 };
      for (let j = 0; j < J; j++) {
        const n = got.counts[j];
        if (n === 0) continue;
        remaining[j] -= n;
        for (let m = 0; m < M; m++) allocated[j][m] += n * pool.demands[j][m];
      }
      load.set(bins[b].used);
      const ru = c >= 0 ? got.ru : resourceUtilisation(load, bins[b].capacity);
      waste += 1 - ru;
      worst = Math.max(worst, 1 - ru);
      counts.push(got.counts);
      choice[b] = c;
      if (c >= 0) prev = c;
    }
    return { counts, choice, waste, worst };
  }

  /**
   * A combination cut to the ready tasks left and to the fair shares (Eq. 6), then, with `limits`, topped
   * up with other jobs' tasks (least-served job first) where the cut freed room, within the same limits:
   * a combination that earlier bins of the walk made unfair is repaired instead of leaving its bin idle.
   * Returns it with its RU.
   */
  function cutTo(want: Int32Array, b: number, remaining: Int32Array, allocated: Float64Array[]): Combination {
    const bin = bins[b];
    const fair = limits ? limits.fair[b] : true;
    const counts = new Int32Array(J);
    for (let j = 0; j < J; j++) counts[j] = fairCount(j, Math.min(want[j], remaining[j]), fair, remaining, allocated);
    scratch.set(bin.used);
    for (let j = 0; j < J; j++) for (let m = 0; m < M; m++) scratch[m] += counts[j] * pool.demands[j][m];
    if (limits) topUp(counts, b, fair, remaining, allocated);
    return { counts, ru: counts.some((n) => n > 0) ? resourceUtilisation(scratch, bin.capacity) : 0 };
  }

  /** The most of `n` more tasks of job j that keep it within its fair share (Eq. 6) while another job has ready tasks. */
  function fairCount(j: number, n: number, fair: boolean, remaining: Int32Array, allocated: Float64Array[]): number {
    if (n <= 0 || !fair || pool.activeJobs <= 1 || !othersWaiting(j, remaining)) return Math.max(0, n);
    return mostWithinFairShare(allocated[j], pool.demands[j], n, pool.total, pool.activeJobs);
  }

  function othersWaiting(j: number, remaining: Int32Array): boolean {
    for (let o = 0; o < J; o++) if (o !== j && remaining[o] > 0) return true;
    return false;
  }

  /** Adds tasks to `counts` (whose load is in `scratch`) job by job, least allocated share first, while they fit. */
  function topUp(counts: Int32Array, b: number, fair: boolean, remaining: Int32Array, allocated: Float64Array[]): void {
    const bin = bins[b];
    const caps = limits!.caps[b];
    let slots = bin.slotsLeft;
    for (let j = 0; j < J; j++) slots -= counts[j];
    const order = Array.from({ length: J }, (_, j) => j).sort((a, c) => dominantShare(allocated[a]) - dominantShare(allocated[c]) || a - c);
    for (const j of order) {
      const d = pool.demands[j];
      let room = Math.min(caps[j], remaining[j]) - counts[j];
      if (room <= 0 || slots < 1) continue;
      for (let m = 0; m < M; m++) if (d[m] > 0) room = Math.min(room, Math.floor((bin.capacity[m] - scratch[m]) / d[m] + 1e-9));
      room = Math.min(room, slots);
      if (room <= 0) continue;
      const before = counts[j];
      allocated[j].forEach((v, m) => (allocated[j][m] = v + before * d[m]));
      const add = fairCount(j, room, fair, remaining, allocated);
      allocated[j].forEach((v, m) => (allocated[j][m] = v - before * d[m]));
      if (add <= 0) continue;
      counts[j] += add;
      slots -= add;
      for (let m = 0; m < M; m++) scratch[m] += add * d[m];
    }
  }

  function dominantShare(a: Float64Array): number {
    let s = 0;
    for (let m = 0; m < M; m++) if (pool.total[m] > 0) s = Math.max(s, a[m] / pool.total[m]);
    return s;
  }
}
