/**
 * Not a test: the thread entry of thread-pool.test.ts. `{ echo }` answers it with this thread's id, `{ fail }`
 * throws it, `{ spinMs }` holds the thread that long, `{ exit }` ends the thread without answering.
 */
import { threadId } from 'node:worker_threads';
import { servePool } from '../../src/engine/threads/thread-pool';

export type PoolWorkerInput = { echo: string } | { fail: string } | { spinMs: number } | { exit: true };

servePool((input: PoolWorkerInput) => {
  if ('fail' in input) throw new Error(input.fail);
  if ('exit' in input) process.exit(3);
  if ('spinMs' in input) {
    const until = Date.now() + input.spinMs;
    while (Date.now() < until); // a chart stuck in vega: the thread answers nothing meanwhile
    return `spun on ${threadId}`;
  }
  return `${input.echo} on ${threadId}`;
});
