import { runInThread } from './run-in-thread';

/**
 * Runs the thread entry `file` once per input, at most `threads` at a time, each on a fresh thread
 * (runInThread), and returns the answers in input order. A fresh thread per input costs a few tens of
 * milliseconds; the jobs this serves (GBT boosting runs) take seconds each.
 */
export async function mapInThreads<I, R>(file: string, inputs: I[], threads: number): Promise<R[]> {
  const out = new Array<R>(inputs.length);
  let next = 0;
  const lane = async () => {
    while (next < inputs.length) {
      const i = next++;
      out[i] = await runInThread<I, never, R>(file, inputs[i]).result;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(threads, inputs.length)) }, lane));
  return out;
}
