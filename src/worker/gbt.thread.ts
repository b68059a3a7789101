/** Thread entry of forecast-build-parallel.ts: trains one GbtJob and answers with the model. */
import { GbtJob, runGbtJob } from '../engine/forecast';
import { serveThread } from '../engine/threads/thread-entry';

serveThread<GbtJob, never, ReturnType<typeof runGbtJob>>(runGbtJob);
