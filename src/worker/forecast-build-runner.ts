import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { BuildInput, BuildOutput } from './forecast-build-compute';
import type { BuildThreadMessage } from './forecast-build-thread';

/** An error of the build's input (no or too little history for the model): the build fails with this message. */
export class BuildInputError extends Error {}

/** Runs computeBuild in a worker thread; the history's typed arrays are copied to it once. */
export function runBuildInThread(input: BuildInput): Promise<BuildOutput> {
  const worker = new Worker(join(__dirname, 'forecast-build-thread.js'), { workerData: input });
  return new Promise<BuildOutput>((resolve, reject) => {
    worker.on('message', (m: BuildThreadMessage) => {
      if (m.type === 'done') resolve(m.output);
      else reject(m.input ? new BuildInputError(m.message) : Object.assign(new Error(m.message), { stack: m.stack }));
    });
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`forecast build thread exited with code ${code} before returning`)));
  }).finally(() => void worker.terminate());
}
