#!/usr/bin/env node
/** The worker process: runs queued solves and forecast builds. No HTTP port. */
import 'reflect-metadata';
import { loadConfig } from './config';
import { startWorker } from './worker/start-worker';

async function main(): Promise<void> {
  const worker = await startWorker(loadConfig());
  let stopping = false;
  const stop = async () => {
    if (stopping) process.exit(1); // a second signal: give up waiting
    stopping = true;
    await worker.close();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
