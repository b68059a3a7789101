import type { Random } from '../random';
import { packWindow, PackingPool } from './colony';
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
  /** Bins whose combinations had to give up locality (no local one reached the RU threshold). */
  nonLocalBins: number;
}

/**
 * One ACO-BP decision (Algorithm 1, steps 2-4): each bin's top combinations (local ones first, Eq. 5;
 * others only when no local one reaches the RU threshold, as the paper lets ACO-BP run non-local tasks to
 * use idle resources, L350), then a colony per window of bins, the windows in order, each taking the
 * ready tasks the earlier ones left. Mutates `input.pool` (remaining, allocated) as tasks are given out.
 */
export function decide(input: PackingInput, p: AcoBpParams, rng: Random): PackingDecision {
  const { bins, pool } = input;
  const counts: Int32Array[] = new Array(bins.length);
  const cache = new Map<string, Combination[]>();
  let iterations = 0;
  let windows = 0;
  let nonLocalBins = 0;
  for (let w0 = 0; w0 < bins.length; w0 += p.windowBins) {
    const window = bins.slice(w0, w0 + p.windowBins);
    const candidates = window.map((bin, b) => {
      const k = w0 + b;
      const local = combinationsOf(bin, cap(input.localCaps[k]));
      if (local.length > 0 && local[0].ru > p.ruThreshold) return local;
      const any = combinationsOf(bin, cap(input.anyCaps[k]));
      if (any.length === 0 || (local.length > 0 && any[0].ru <= local[0].ru)) return local;
      nonLocalBins++;
      return any;
    });
    const result = packWindow(window, candidates, pool, p, rng);
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
  return { counts, windows, iterations, nonLocalBins };

  /** A bin's caps, cut to what is still ready. */
  function cap(caps: Int32Array): Int32Array {
    const out = new Int32Array(caps.length);
    for (let j = 0; j < caps.length; j++) out[j] = Math.min(caps[j], pool.remaining[j]);
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
