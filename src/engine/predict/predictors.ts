import { emptyStats, mean, Moments, rateOf, StageStats, std, TaskKind } from './stats';

/**
 * POSUM's three task-runtime predictors (seeds/002, section IV, Eq. 1-3), on the statistics of stats.ts.
 * Where the data come from, in the paper's order of preference:
 * - `current`: the completed tasks of this stage in the running job (empty before it runs);
 * - `byClass`: past jobs that declared the same map class (for a map stage) or reduce class (for a reduce);
 * - `byCustomer`: the customer's most recent jobs (the caller picks the N most recent);
 * each already summed over its jobs. The basic predictor uses only `current` and `byCustomer` ("similar
 * jobs are those of the same user"); the standard and detailed ones prefer `byClass`.
 */
export type PredictorName = 'basic' | 'standard' | 'detailed';
export const PREDICTOR_NAMES: readonly PredictorName[] = ['basic', 'standard', 'detailed'];
export type PredictorChoice = PredictorName | 'auto';
export const PREDICTOR_CHOICES: readonly PredictorChoice[] = ['auto', ...PREDICTOR_NAMES];

export interface StageEvidence {
  current: StageStats;
  byClass: StageStats | null;
  byCustomer: StageStats | null;
}

export interface StageQuery {
  kind: TaskKind;
  /** Tasks in the stage. */
  tasks: number;
  /** Bytes each task reads: a map's block (d^M). For a reduce, derived from the maps (see mapInputBytes). */
  inputBytesPerTask: number | null;
  /** For a reduce: the bytes its job's map stages read in all (sum of tasks x block); its tasks split f times that. */
  mapInputBytes: number | null;
  /** This stage's evidence. */
  own: StageEvidence;
  /** For a reduce: the evidence of its job's map stages (selectivity, and their rate when nothing else is known). */
  maps: StageEvidence | null;
}

export interface Prediction {
  predictor: PredictorName;
  /** Predicted seconds of one task of the stage (a map that reads locally; a typical reduce). */
  seconds: number;
  /** Completed tasks the prediction rests on (of its main rate or mean). */
  samples: number;
  /** One standard deviation of a task's runtime around the prediction, in seconds; null below two samples. */
  errorSeconds: number | null;
  /** Where its main figure came from. */
  source: 'current-job' | 'class' | 'customer' | 'map-rate';
  /** Detailed predictor, maps: seconds of a task that reads its block remotely; reduces: of a first-wave reduce. */
  alternativeSeconds?: number;
}

export interface PredictorParams {
  /** Samples a predictor needs before `auto` trusts it. */
  minSamples: number;
}

export const PREDICTOR_DEFAULTS: PredictorParams = { minSamples: 5 };

const SOURCES: ['current-job' | 'class' | 'customer', (e: StageEvidence) => StageStats | null][] = [
  ['current-job', (e) => e.current],
  ['class', (e) => e.byClass],
  ['customer', (e) => e.byCustomer],
];

/** The first source (current job, class, customer) where `pick` has samples; null when none has. */
function firstWith(e: StageEvidence, pick: (s: StageStats) => Moments, classes = true): { m: Moments; source: Prediction['source'] } | null {
  for (const [source, of] of SOURCES) {
    if (!classes && source === 'class') continue;
    const s = of(e);
    if (s && pick(s).n > 0) return { m: pick(s), source };
  }
  return null;
}

function errorOf(m: Moments, scale: number): number | null {
  const sd = std(m);
  return Number.isFinite(sd) ? sd * scale : null;
}

/** Basic: the mean runtime of the stage's completed tasks in this job, else in the customer's recent jobs. */
export function basic(q: StageQuery): Prediction | null {
  const found = firstWith(q.own, (s) => s.runtime, false);
  if (!found) return null;
  return { predictor: 'basic', seconds: mean(found.m), samples: found.m.n, errorSeconds: errorOf(found.m, 1), source: found.source };
}

/**
 * Map selectivity f (bytes out per byte in) from the job's maps: this job's completed ones, else the map
 * class's history, else the customer's. null when no map reported both sizes.
 */
export function selectivity(maps: StageEvidence | null): number | null {
  if (!maps) return null;
  for (const [, of] of SOURCES) {
    const s = of(maps);
    if (s && s.bytesIn > 0) return s.bytesOut / s.bytesIn;
  }
  return null;
}

/** Bytes one task of the stage reads: a map's block; a reduce's share of its job's map output, f x d^M / tasks. */
export function taskInputBytes(q: StageQuery): number | null {
  if (q.kind === 'map') return q.inputBytesPerTask !== null && q.inputBytesPerTask > 0 ? q.inputBytesPerTask : null;
  if (q.inputBytesPerTask !== null && q.inputBytesPerTask > 0) return q.inputBytesPerTask;
  const f = selectivity(q.maps);
  if (f === null || q.mapInputBytes === null || !(q.mapInputBytes > 0) || q.tasks <= 0) return null;
  return (f * q.mapInputBytes) / q.tasks;
}

/**
 * Standard (Eq. 1): r = d x rho, rho the seconds per byte of similar completed tasks (weighted: their total
 * seconds over their total bytes, stats.ts rateOf) (this job's, else
 * the class's, else the customer's). A reduce with no history of its own but completed maps takes the map
 * rate, as the paper says. null when the stage's input size is unknown or nothing has a rate.
 */
export function standard(q: StageQuery): Prediction | null {
  const d = taskInputBytes(q);
  if (d === null) return null;
  let found = firstWith(q.own, (s) => s.rate);
  if (!found && q.kind === 'reduce' && q.maps) {
    const maps = firstWith(q.maps, (s) => s.rate);
    if (maps) found = { m: maps.m, source: 'map-rate' };
  }
  if (!found) return null;
  return { predictor: 'standard', seconds: d * rateOf(found.m), samples: found.m.n, errorSeconds: errorOf(found.m, d), source: found.source };
}

/**
 * Detailed (Eq. 2-3). Maps: separate rates for local and non-local reads; the prediction is a local map's
 * (Fallow plans put maps where their blocks are), `alternativeSeconds` a remote one's. Reduces: a typical
 * reduce is d x (rho_shuffle + rho_merge + rho_reduce); a first-wave one t_shuffle1 + d x (rho_merge +
 * rho_reduce) (`alternativeSeconds`). Every rate from the same source (this job, class, customer), the
 * first that has the phases. null when the phases or the local rate are unknown.
 */
export function detailed(q: StageQuery): Prediction | null {
  const d = taskInputBytes(q);
  if (d === null) return null;
  if (q.kind === 'map') {
    const local = firstWith(q.own, (s) => s.rateLocal);
    if (!local) return null;
    const remote = firstWith(q.own, (s) => s.rateRemote);
    return {
      predictor: 'detailed',
      seconds: d * rateOf(local.m),
      samples: local.m.n,
      errorSeconds: errorOf(local.m, d),
      source: local.source,
      ...(remote ? { alternativeSeconds: d * rateOf(remote.m) } : {}),
    };
  }
  for (const [source, of] of SOURCES) {
    const s = of(q.own);
    if (!s || s.mergeRate.n === 0) continue;
    const typicalRate = rateOf(s.shuffleRate) + rateOf(s.mergeRate) + rateOf(s.reduceRate);
    const tail = d * (rateOf(s.mergeRate) + rateOf(s.reduceRate));
    const first = s.firstShuffle.n > 0 ? mean(s.firstShuffle) + tail : undefined;
    if (s.shuffleRate.n === 0) {
      // Only first-wave reduces seen: that is the estimate there is.
      return { predictor: 'detailed', seconds: first!, samples: s.firstShuffle.n, errorSeconds: errorOf(s.runtime, 1), source };
    }
    // Spread: the three phases' rates taken as independent.
    const sds = [std(s.shuffleRate), std(s.mergeRate), std(s.reduceRate)];
    const err = sds.every(Number.isFinite) ? d * Math.sqrt(sds.reduce((a, x) => a + x * x, 0)) : null;
    return { predictor: 'detailed', seconds: d * typicalRate, samples: s.shuffleRate.n, errorSeconds: err, source, ...(first !== undefined ? { alternativeSeconds: first } : {}) };
  }
  return null;
}

const BY_NAME = { basic, standard, detailed } as const;

/**
 * The prediction `choice` asks for: one predictor (null when it has nothing to go on), or `auto`: the most
 * detailed one with at least `minSamples` samples, else the one with the most samples.
 */
export function predict(q: StageQuery, choice: PredictorChoice, p: PredictorParams = PREDICTOR_DEFAULTS): Prediction | null {
  if (choice !== 'auto') return BY_NAME[choice](q);
  const all = [detailed(q), standard(q), basic(q)].filter((x): x is Prediction => x !== null && Number.isFinite(x.seconds));
  return all.find((x) => x.samples >= p.minSamples) ?? all.sort((a, b) => b.samples - a.samples)[0] ?? null;
}

/** Evidence with nothing in it (a stage never seen). */
export function noEvidence(): StageEvidence {
  return { current: emptyStats(), byClass: null, byCustomer: null };
}

