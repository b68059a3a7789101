/**
 * What the runtime predictors (POSUM, seeds/002 section IV) learn from: per stage of a job, sums over its
 * completed tasks. Every field is a sum, so the statistics of many jobs are the field-wise sum of theirs:
 * a database can keep one row per job and stage up to date as events arrive and add rows up per request.
 */

export type Locality = 'node' | 'rack' | 'remote';
export const LOCALITIES: readonly Locality[] = ['node', 'rack', 'remote'];

/** A stage with no predecessor is a map stage; any other a reduce stage (POSUM's two task types). */
export type TaskKind = 'map' | 'reduce';

/** One completed task, as the platform's execution events describe it. */
export interface TaskRun {
  runtimeSeconds: number;
  /** Bytes the task read (a map's block, a reduce's share of the map output); null when not reported. */
  inputBytes?: number | null;
  outputBytes?: number | null;
  /** Where a map read its block from; null when not reported. */
  locality?: Locality | null;
  /** A reduce's phases in seconds (shuffle, merge, reduce), when its shuffle and merge ends were reported. */
  shuffleSeconds?: number | null;
  mergeSeconds?: number | null;
  reduceSeconds?: number | null;
  /** A reduce that started before the last map of its job ended: part of its shuffle overlapped the maps. */
  firstWave?: boolean | null;
}

/**
 * Count, sum and sum of squares of a quantity (its mean and spread), and for a ratio r / d the sums of
 * its numerators and denominators (`num`, `den`: the weighted rate sum r / sum d). All mergeable by addition.
 */
export interface Moments {
  n: number;
  sum: number;
  sumSq: number;
  num: number;
  den: number;
}

export interface StageStats {
  /** Runtime in seconds of every completed task. */
  runtime: Moments;
  /** Seconds per byte read (r_i / d_i, the inverse of POSUM's "average processing rate"), tasks that reported input. */
  rate: Moments;
  /** The same for maps that read locally (node-local) and the others (rack-local or remote): Eq. 2. */
  rateLocal: Moments;
  rateRemote: Moments;
  /** Input and output bytes of tasks that reported both: the selectivity f = output / input of maps. */
  bytesIn: number;
  bytesOut: number;
  /** A typical reduce's phases, seconds per byte of reduce input (Eq. 3). */
  shuffleRate: Moments;
  mergeRate: Moments;
  reduceRate: Moments;
  /** Shuffle seconds of first-wave reduces (t^{Rs,1} of Eq. 3): a time, not a rate. */
  firstShuffle: Moments;
}

export function emptyMoments(): Moments {
  return { n: 0, sum: 0, sumSq: 0, num: 0, den: 0 };
}

export function emptyStats(): StageStats {
  return {
    runtime: emptyMoments(),
    rate: emptyMoments(),
    rateLocal: emptyMoments(),
    rateRemote: emptyMoments(),
    bytesIn: 0,
    bytesOut: 0,
    shuffleRate: emptyMoments(),
    mergeRate: emptyMoments(),
    reduceRate: emptyMoments(),
    firstShuffle: emptyMoments(),
  };
}

/** Adds x = num / den (for a plain quantity: num = x, den = 1). */
function add(m: Moments, num: number, den = 1): void {
  const x = num / den;
  m.n++;
  m.sum += x;
  m.sumSq += x * x;
  m.num += num;
  m.den += den;
}

/** Adds one completed task to a stage's statistics (mutates and returns `s`). */
export function addRun(s: StageStats, run: TaskRun): StageStats {
  if (!(run.runtimeSeconds >= 0)) return s;
  add(s.runtime, run.runtimeSeconds);
  const d = run.inputBytes ?? 0;
  if (d > 0) {
    const r = run.runtimeSeconds;
    add(s.rate, r, d);
    if (run.locality === 'node') add(s.rateLocal, r, d);
    else if (run.locality === 'rack' || run.locality === 'remote') add(s.rateRemote, r, d);
    if (run.outputBytes !== null && run.outputBytes !== undefined && run.outputBytes >= 0) {
      s.bytesIn += d;
      s.bytesOut += run.outputBytes;
    }
    const phases = [run.shuffleSeconds, run.mergeSeconds, run.reduceSeconds];
    if (phases.every((p) => p !== null && p !== undefined && p >= 0)) {
      if (run.firstWave) add(s.firstShuffle, run.shuffleSeconds!);
      else add(s.shuffleRate, run.shuffleSeconds!, d);
      add(s.mergeRate, run.mergeSeconds!, d);
      add(s.reduceRate, run.reduceSeconds!, d);
    }
  }
  return s;
}

/** Field-wise sum: the statistics of the union of two sets of tasks. */
export function mergeStats(a: StageStats, b: StageStats): StageStats {
  const m = (x: Moments, y: Moments): Moments => ({ n: x.n + y.n, sum: x.sum + y.sum, sumSq: x.sumSq + y.sumSq, num: x.num + y.num, den: x.den + y.den });
  return {
    runtime: m(a.runtime, b.runtime),
    rate: m(a.rate, b.rate),
    rateLocal: m(a.rateLocal, b.rateLocal),
    rateRemote: m(a.rateRemote, b.rateRemote),
    bytesIn: a.bytesIn + b.bytesIn,
    bytesOut: a.bytesOut + b.bytesOut,
    shuffleRate: m(a.shuffleRate, b.shuffleRate),
    mergeRate: m(a.mergeRate, b.mergeRate),
    reduceRate: m(a.reduceRate, b.reduceRate),
    firstShuffle: m(a.firstShuffle, b.firstShuffle),
  };
}

export function statsOf(runs: Iterable<TaskRun>): StageStats {
  const s = emptyStats();
  for (const r of runs) addRun(s, r);
  return s;
}

export function mean(m: Moments): number {
  return m.n > 0 ? m.sum / m.n : NaN;
}

/**
 * A processing rate (seconds per byte): total seconds over total bytes of the samples. POSUM's formula
 * averages the per-task ratios; that mean is dominated by tasks that read almost nothing (a reduce of a few
 * kB still pays its start-up), while the weighted rate is what the bytes actually cost.
 */
export function rateOf(m: Moments): number {
  return m.den > 0 ? m.num / m.den : NaN;
}

/** Sample standard deviation; NaN below two samples (one sample says nothing of the spread). */
export function std(m: Moments): number {
  if (m.n < 2) return NaN;
  const v = (m.sumSq - (m.sum * m.sum) / m.n) / (m.n - 1);
  return v > 0 ? Math.sqrt(v) : 0;
}
