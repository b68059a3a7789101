/** Worker-thread entry of forecast-build-parallel.ts: trains each GbtJob it is sent, answers with the model. */
import { parentPort } from 'node:worker_threads';
import { GbtJob, runGbtJob } from '../engine/forecast';

if (parentPort) {
  const port = parentPort;
  port.on('message', (job: GbtJob) => {
    try {
      port.postMessage({ ok: true, model: runGbtJob(job) });
    } catch (e) {
      port.postMessage({ ok: false, message: (e as Error).message });
    }
  });
}
