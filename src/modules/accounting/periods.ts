import { clampedDate } from '../../engine/model/input-bounds';

/** Billing periods: UTC days, ISO weeks (starting on Monday) and calendar months. */
export const PERIODS = ['day', 'week', 'month'] as const;
export type Period = (typeof PERIODS)[number];

const DAY_MS = 86_400_000;

/** The start of the period containing `t`, in UTC. */
export function periodStart(t: Date, period: Period): Date {
  const day = Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate());
  if (period === 'day') return new Date(day);
  if (period === 'week') return new Date(day - ((t.getUTCDay() + 6) % 7) * DAY_MS); // getUTCDay: 0 = Sunday
  return new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), 1));
}

/** The start of the next period (exclusive end of this one); months have their true lengths. */
export function periodEnd(start: Date, period: Period): Date {
  if (period === 'day') return new Date(start.getTime() + DAY_MS);
  if (period === 'week') return new Date(start.getTime() + 7 * DAY_MS);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}

export interface PeriodBounds {
  periodStart: string;
  periodEnd: string;
}

/** ISO bounds of the period containing `t`; `periodStart` also serves as the grouping key. */
export function periodOf(t: Date, period: Period): PeriodBounds {
  const start = periodStart(t, period);
  return { periodStart: start.toISOString(), periodEnd: periodEnd(start, period).toISOString() };
}

/** `from` inclusive, `to` exclusive; either may be open. */
export interface TimeRange {
  from?: Date;
  to?: Date;
}

export function inRange(t: Date, r: TimeRange): boolean {
  return (!r.from || t.getTime() >= r.from.getTime()) && (!r.to || t.getTime() < r.to.getTime());
}

/**
 * Wall-clock time of a slot boundary of a plan whose slot 0 starts at `startsAt`, clamped to a showable
 * date: a plan stored before the input bounds (deadlineSlot 1e300) must not make a report fail.
 */
export function slotTime(startsAt: Date, slot: number, slotSeconds: number): Date {
  return clampedDate(startsAt.getTime() + slot * slotSeconds * 1000);
}
