#!/usr/bin/env node
/** The worker process: runs queued solves, forecast builds and simulations. No HTTP port. */
import 'reflect-metadata';
import { loadConfig } from './config';
import { RunningWorker, startWorker } from './worker/start-worker';

async function main(): Promise<void> {
  let worker: RunningWorker | undefined;
  let stopping = false;
  const stop = async () => {
    if (stopping) process.exit(1); // a second signal: give up waiting
    stopping = true;
    if (!worker) return; // still starting: it stops once started
    await worker.close();
    process.exit(0);
  };
  // Installed before the start, so a signal during it is a clean stop rather than a kill.
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  worker = await startWorker(loadConfig());
  if (stopping) {
    await worker.close();
    process.exit(0);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
