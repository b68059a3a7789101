/**
 * Thread entry of a forecast build: training a GBT on a week of 100 nodes takes seconds of CPU, which on
 * the worker's main thread would stop it renewing its BullMQ locks and hearing cancellations.
 */
import { ForecastInputError } from '../../engine/forecast';
import { serveThread } from '../../engine/threads/thread-entry';
import { BuildOutput, computeBuild, ForecastInput } from '../../work/forecast';

// An input error: the history or the request cannot make this forecast (the user's, not a crash).
serveThread<ForecastInput, never, BuildOutput>(computeBuild, { isInputError: (e) => e instanceof ForecastInputError });
