/**
 * SQL for slot arithmetic on stored rows that never fails. A row stored before the input bounds
 * (input-bounds.ts) may say slotSeconds 1e308: multiplied in float8 that overflows ("value out of range"),
 * added to a timestamp it is "timestamp out of range", and either made a whole listing answer 500.
 * Each factor and the product are clamped first; 1e10 s (317 years) is beyond any span the bounds allow.
 */
const MAX_SQL_FACTOR = 1e10;
const MAX_SQL_SPAN_SECONDS = 1e10;

/** Seconds from slot 0 to the end of `slots` slots of `slotSeconds` (SQL expressions of any numeric type). */
export function spanSecondsSql(slots: string, slotSeconds: string): string {
  const clamp = (e: string) => `LEAST(GREATEST((${e})::float8, 0), ${MAX_SQL_FACTOR})`;
  return `LEAST(${clamp(slots)} * ${clamp(slotSeconds)}, ${MAX_SQL_SPAN_SECONDS})`;
}

/** `startsAt` + `slots` x `slotSeconds` as a timestamptz. */
export function slotEndSql(startsAt: string, slots: string, slotSeconds: string): string {
  return `(${startsAt} + make_interval(secs => ${spanSecondsSql(slots, slotSeconds)}))`;
}
