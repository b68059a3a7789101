import type { Issue } from '../../engine/model/types';
import { forecastEndsAt } from '../forecasts/forecasts.service';

/** The part of a forecast a solve (or a policy simulation) uses. */
export interface ForecastWindow {
  /** Forecast slots before the run's start, skipped: the instance's slot 0 is the forecast's slot `offset`. */
  offset: number;
  /** Slots of the forecast from the run's start on. */
  slots: number;
  /** Set when the run starts outside the forecast and the request allowed it anyway. */
  warning: string | null;
}

/** What runs on the instance assembled from references: named in messages so they speak of the resource asked for. */
export type RunNoun = 'solve' | 'simulation';

/**
 * Where a run starting at `startsAt` falls in a forecast whose slot 0 stands for `forecast.startsAt`. Inside
 * the forecast, the slots already past are skipped, so the instance's slot 0 meets the forecast's slot for
 * that time. Outside it (before slot 0, or after the last slot) the forecast says nothing about the run's
 * time: a 422 issue, unless the request allows a stale forecast, which is then used from its slot 0 with a warning.
 */
export function forecastWindow(
  forecast: { id: string; startsAt: Date; slots: number; slotSeconds: number },
  startsAt: Date,
  allowStale: boolean,
  noun: RunNoun,
): ForecastWindow | Issue {
  const S = forecast.slotSeconds;
  const seconds = (startsAt.getTime() - forecast.startsAt.getTime()) / 1000;
  const offset = Math.floor(seconds / S + 1e-9);
  if (seconds >= 0 && offset < forecast.slots) return { offset, slots: forecast.slots - offset, warning: null };
  const ends = forecastEndsAt(forecast);
  const what = `forecast ${forecast.id} covers ${forecast.startsAt.toISOString()} to ${ends.toISOString()}, and the ${noun} starts at ${startsAt.toISOString()}`;
  if (!allowStale)
    return { path: 'startsAt', message: `outside the forecast: ${what}; post a forecast for that time, or set allowStaleForecast to run the ${noun} with this one from its slot 0` };
  return { offset: 0, slots: forecast.slots, warning: `stale forecast: ${what}; its slot 0 was used as the ${noun}'s (allowStaleForecast)` };
}
