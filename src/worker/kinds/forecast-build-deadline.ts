import type { Deadline } from '../../modules/work/work-handler';
import { scaledDeadline } from '../../modules/work/deadline';
import type { TrainingHistory } from '../../modules/usage/usage.service';

/** What any build gets: the thread's start and the grid. */
const BASE_MS = 30_000;
/**
 * Allowance per slot of one series of history on the build's grid (the rows the GBT and the held-out day
 * train on): cancel-any-work.test.ts's GBT build of 2 series x 3 days of 5-minute slots (1,728 series-slots)
 * takes about 2.4 s, 1.4 ms each with the thread's start; 0.5 ms a series-slot over 30 s leaves a week of
 * 100 nodes x 2 metrics (403,200) about 230 s, several times what it takes.
 */
const PER_SERIES_SLOT_MS = 0.5;

/** A forecast build's deadline: 30 s plus an allowance per series-slot of its training history, capped by FALLOW_FORECAST_BUILD_MAX_SECONDS. */
export function forecastBuildDeadline(loaded: TrainingHistory, slotSeconds: number, maxSeconds: number): Deadline {
  const series = Object.values(loaded.history).reduce((n, metrics) => n + Object.keys(metrics).length, 0);
  const slots = Math.ceil((loaded.to - loaded.from) / slotSeconds) + 1;
  return scaledDeadline({ baseMs: BASE_MS, perUnitMs: PER_SERIES_SLOT_MS, units: series * slots, unitWords: 'series-slots of history', maxSeconds, maxEnv: 'FALLOW_FORECAST_BUILD_MAX_SECONDS' });
}
