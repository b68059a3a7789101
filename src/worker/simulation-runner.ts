import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SimReport } from '../engine/simulate';
import type { SimulationInput, SimulationThreadMessage } from './simulation-thread';

/** The plan or the usage cannot be simulated: the simulation fails with this message (a retry would too). */
export class SimulationInputError extends Error {}

/** Runs the simulation in a worker thread (simulation-thread.ts says why). */
export function runSimulationInThread(input: SimulationInput): Promise<SimReport> {
  const worker = new Worker(join(__dirname, 'simulation-thread.js'), { workerData: input });
  return new Promise<SimReport>((resolve, reject) => {
    worker.on('message', (m: SimulationThreadMessage) => {
      if (m.type === 'done') resolve(m.report);
      else reject(m.input ? new SimulationInputError(m.message) : Object.assign(new Error(m.message), { stack: m.stack }));
    });
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`simulation thread exited with code ${code} before returning`)));
  }).finally(() => void worker.terminate());
}
