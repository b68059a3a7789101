import type { Random } from '../random';
import { packWindow, PackingPool } from './colony';
import { mostWithinFairShare } from './equations';
import { BinRoom, Combination, topCombinations } from './combinations';
import type { AcoBpParams } from './params';

export interface PackingInput {
  /** The bins (VMs) in the paper's order; windows are consecutive runs of `windowBins` of them. */
  bins: readonly BinRoom[];
  pool: PackingPool;
  /** Per bin and job: ready tasks the bin may take while keeping locality (Eq. 5): local maps, reduces on preferred bins. */
  localCaps: readonly Int32Array[];
  /** Per bin and job: ready tasks the bin may take at all (used when no local combination is good enough). */
  anyCaps: readonly Int32Array[];
}

export interface PackingDecision {
  /** Tasks of each job to start on each bin now. */
  counts: Int32Array[];
  windows: number;
  iterations: number;
  /** Bins whose combinations had to give up locality (no local one was good enough). */
  nonLocalBins: number;
  /** Per bin: whether its combination gave up locality (its tasks may be any ready ones, not only local ones). */
  nonLocal: Uint8Array;
  /** Bins that would have stayed idle within the fair shares and took tasks beyond them (work conservation). */
  unfairBins: number;
}

/**
 * One ACO-BP decision (Algorithm 1, steps 2-4): each bin's top combinations among the jobs within their
 * fair share (Eq. 6, a constraint of the packing as the model states it, so the top 5 are combinations the
 * bin can actually take), local ones first (Eq. 5); non-local ones only when no local one reaches the RU
 * threshold, as the paper lets ACO-BP run non-local tasks to use idle resources (L350); beyond the fair
 * shares only for a bin that would otherwise stay idle (the paper "relaxes the actual fair share", L345).
 * Then a colony per window of bins, the windows in order, each taking the ready tasks the earlier ones
 * left. Mutates `input.pool` (remaining, allocated) as tasks are given out.
 */
export function decide(input: PackingInput, p: AcoBpParams, rng: Random): PackingDecision {
  const { bins, pool } = input;
  const counts: Int32Array[] = new Array(bins.length);
  const cache = new Map<string, Combination[]>();
  let iterations = 0;
  let windows = 0;
  let nonLocalBins = 0;
  let unfairBins = 0;
  const nonLocal = new Uint8Array(bins.length);
  for (let w0 = 0; w0 < bins.length; w0 += p.windowBins) {
    const window = bins.slice(w0, w0 + p.windowBins);
    const fairCaps = fairShareCaps();
    const caps: Int32Array[] = [];
    const fair: boolean[] = [];
    const candidates = window.map((bin, b) => {
      const k = w0 + b;
      for (const withinShares of [true, false]) {
        const limit = withinShares ? fairCaps : null;
        const localCaps = cap(input.localCaps[k], limit);
        const anyCaps = cap(input.anyCaps[k], limit);
        const local = combinationsOf(bin, localCaps);
        let chosen = local;
        let chosenCaps = localCaps;
        if (local.length === 0) {
          const any = combinationsOf(bin, anyCaps);
          if (any.length > 0 && (local.length === 0 || any[0].ru > local[0].ru)) {
            chosen = any;
            chosenCaps = anyCaps;
            nonLocalBins++;
            nonLocal[k] = 1;
          }
        }
        if (chosen.length === 0 && withinShares) continue;
        if (!withinShares) unfairBins++;
        caps.push(chosenCaps);
        fair.push(withinShares);
        return chosen;
      }
      return [];
    });
    const result = packWindow(window, candidates, pool, p, rng, { caps, fair });
    iterations += result.iterations;
    windows++;
    result.counts.forEach((c, b) => {
      counts[w0 + b] = c;
      for (let j = 0; j < c.length; j++) {
        if (c[j] === 0) continue;
        pool.remaining[j] -= c[j];
        for (let m = 0; m < pool.total.length; m++) pool.allocated[j][m] += c[j] * pool.demands[j][m];
      }
    });
  }
  return { counts, windows, iterations, nonLocalBins, nonLocal, unfairBins };

  /** A bin's caps, cut to what is still ready and, when given, to the fair-share caps. */
  function cap(caps: Int32Array, limit: Int32Array | null): Int32Array {
    const out = new Int32Array(caps.length);
    for (let j = 0; j < caps.length; j++) out[j] = Math.min(caps[j], pool.remaining[j], limit ? limit[j] : Infinity);
    return out;
  }

  /** Per job, the most more tasks Eq. 6 lets it take now (all of its ready ones when it is the only job waiting). */
  function fairShareCaps(): Int32Array {
    const J = pool.demands.length;
    const out = new Int32Array(J);
    const waiting = pool.remaining.reduce((n, r) => n + (r > 0 ? 1 : 0), 0);
    for (let j = 0; j < J; j++) {
      const r = pool.remaining[j];
      out[j] = r <= 0 || pool.activeJobs <= 1 || waiting <= 1 ? Math.max(0, r) : mostWithinFairShare(pool.allocated[j], pool.demands[j], r, pool.total, pool.activeJobs);
    }
    return out;
  }

  /** Bins with the same room and caps share their combinations (most of a decision's bins, at its start). */
  function combinationsOf(bin: BinRoom, caps: Int32Array): Combination[] {
    const key = `${bin.capacity.join(',')}|${bin.used.join(',')}|${bin.slotsLeft}|${caps.join(',')}`;
    let found = cache.get(key);
    if (!found) cache.set(key, (found = topCombinations(bin, pool.demands, caps, p.topCombinations, p.ruThreshold, p.maxEnumerated)));
    return found;
  }
}
