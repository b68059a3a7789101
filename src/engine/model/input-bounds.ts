/**
 * Input bounds: the largest (and smallest) value every number, time and string may take where it enters,
 * so that nothing stored can later overflow a date, a timestamp column or an amount. They sit beside the
 * admission limits (admission.ts, how LARGE an instance may be); these say how EXTREME one value may be.
 *
 * The constants hold for every document, the CLI's too (a slot of 1e300 seconds is a mistake offline as
 * well); the service's configurable ones (InputLimits) come from its configuration like AdmissionLimits.
 */

/** Longest slot: a week. Longer slots make no schedule, and slot x slotSeconds must stay a date. */
export const MAX_SLOT_SECONDS = 7 * 86_400;

/**
 * Largest slot index a document may name (releaseSlot, deadlineSlot) whatever its horizon. The service
 * also holds them to its admission limit on slots (FALLOW_MAX_SLOTS).
 */
export const MAX_SLOT_INDEX = 10_000_000;

/**
 * Longest time a document may span from its slot 0: horizon.slots x slotSeconds, and releaseSlot or
 * deadlineSlot x slotSeconds where the document has a slot length (a forecast's slots x slotSeconds too).
 * 100 years: any start from now on stays a 4-digit-year date.
 */
export const MAX_SPAN_SECONDS = 100 * 366 * 86_400;

/** Largest duration of one task (durationSeconds, defaultDurationSeconds): a year. */
export const MAX_TASK_SECONDS = 366 * 86_400;

/**
 * Largest revenue of one job, in either direction (|onTime|, |late|): 1e11 minor units (a billion euros in
 * cents). The sum over the most jobs an instance may hold (FALLOW_MAX_JOBS, 20,000) stays an exact integer
 * (under 2^53); the service also asks for whole minor units.
 */
export const MAX_REVENUE = 1e11;

/** Longest string anywhere in a request body (a value or a key), in UTF-16 code units. */
export const MAX_STRING_LENGTH = 10_000;

/**
 * Names that address an object's prototype. A node id or metric name becomes a key of the documents that
 * carry per-node and per-metric values (usage, capacity, demand), where these keys are refused (a parsed
 * body cannot carry them safely), so a node or metric cannot be called so either.
 */
export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** The instants every shown date lies in: 0000-01-01 to 9999-12-31, the range of a 4-digit ISO 8601 year. */
export const MIN_TIME_MS = Date.parse('0000-01-01T00:00:00.000Z');
export const MAX_TIME_MS = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * A time in milliseconds as a Date that can always be shown and stored: a value out of range (a row stored
 * before the bounds existed, a sum that overflowed) is clamped to the range, NaN to its end, never an
 * Invalid Date that throws in toISOString.
 */
export function clampedDate(ms: number): Date {
  if (Number.isNaN(ms)) return new Date(MAX_TIME_MS);
  return new Date(Math.min(MAX_TIME_MS, Math.max(MIN_TIME_MS, ms)));
}

/** A string holds a NUL (refused by Postgres text) or half of a surrogate pair (not valid UTF-8 when stored). */
export function stringProblem(s: string): string | undefined {
  if (s.length > MAX_STRING_LENGTH) return `longer than ${MAX_STRING_LENGTH} characters (${s.length})`;
  if (s.includes('\u0000')) return 'must not contain a NUL character (\\u0000)';
  if (!isWellFormed(s)) return 'must not contain a lone surrogate (half of a UTF-16 pair: not valid Unicode)';
  return undefined;
}

function isWellFormed(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c >= 0xdc00) return false; // a low half with no high half before it
    const next = s.charCodeAt(i + 1);
    if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
    i++;
  }
  return true;
}

/** The service's configurable input bounds (README, Configuration). */
export interface InputLimits {
  /** Values in one forecast: slots x nodes x metrics (FALLOW_MAX_FORECAST_POINTS). */
  maxForecastPoints: number;
  /** How old an execution event may be, in days (FALLOW_EVENT_MAX_AGE_DAYS). */
  eventMaxAgeDays: number;
  /** How far ahead of the server's clock an execution event may be dated, in seconds (FALLOW_EVENT_MAX_AHEAD_SECONDS). */
  eventMaxAheadSeconds: number;
}

export const DEFAULT_INPUT_LIMITS: InputLimits = {
  maxForecastPoints: 2_000_000,
  eventMaxAgeDays: 366,
  eventMaxAheadSeconds: 86_400,
};

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * An ISO 8601 date-time with its zone as an instant, or undefined when it is not one. Stricter than
 * Date.parse, which rolls 2030-02-31 over to March 3 and takes 24:00: the date must exist in the calendar.
 */
export function parseIsoDateTime(s: unknown): Date | undefined {
  if (typeof s !== 'string') return undefined;
  const m = ISO_DATE_TIME.exec(s);
  if (!m) return undefined;
  const [y, mo, d, h, mi, sec] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number);
  if (mo < 1 || mo > 12 || d < 1 || d > new Date(Date.UTC(2000, mo, 0)).getUTCDate() || h > 23 || mi > 59 || sec > 59) return undefined;
  if (mo === 2 && d === 29 && !(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0))) return undefined;
  const t = Date.parse(s);
  return Number.isFinite(t) ? new Date(t) : undefined;
}
