import type { Deadline } from './work-handler';

/** Node's timers fire at once past 2^31 - 1 ms (about 24.8 days): no deadline may be longer. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

export interface ScaledDeadline {
  /** What any piece of the kind gets, however small (a thread's start, loading its input). */
  baseMs: number;
  /** The allowance per unit of its size. */
  perUnitMs: number;
  units: number;
  /** The units in words, plural ("simulated task runs"). */
  unitWords: string;
  /** The cap, in seconds, and the configuration variable that sets it. */
  maxSeconds: number;
  maxEnv: string;
}

/**
 * A deadline that grows with the work's size and is capped by configuration: small work that runs away
 * (a simulator caught in a loop) is stopped soon, large work gets the time its size needs, and nothing holds
 * a worker slot longer than the operator allows.
 */
export function scaledDeadline(d: ScaledDeadline): Deadline {
  const scaled = d.baseMs + d.perUnitMs * Math.max(0, d.units);
  const capMs = Math.min(d.maxSeconds * 1000, LONGEST_TIMER_MS);
  const capped = !(scaled < capMs); // NaN or Infinity (a size past counting) takes the cap too
  const sizing = `${d.baseMs / 1000} s plus ${d.perUnitMs} ms for each of its ${Math.round(d.units).toLocaleString('en-US')} ${d.unitWords}`;
  return capped ? { ms: capMs, why: `${sizing}, capped by ${d.maxEnv}=${d.maxSeconds}` } : { ms: Math.round(scaled), why: sizing };
}
