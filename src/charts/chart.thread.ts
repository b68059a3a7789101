/** Thread entry of the API's chart threads (src/modules/charts/chart-renderer.ts): makes one chart a message. */
import { servePool } from '../engine/threads/thread-pool';
import { makeChart } from './chart-job';

servePool(makeChart);
