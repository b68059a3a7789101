/**
 * The thread side of run-in-thread.ts: a thread entry calls `serveThread(work)` at its top level. `work`
 * gets the input, an `emit` for events and the caller's stop flag; what it returns (or resolves) is the
 * answer. An error it throws is posted as such, marked `input` when `isInputError` says so.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { StopFlag } from '../budget/stop-flag';
import type { ThreadData, ThreadMessage } from './run-in-thread';

export interface ThreadTools<E> {
  emit(event: E, transfer?: ArrayBuffer[]): void;
  /**
   * Raised once the caller asked the work to stop: a stop flag (budget/stop-flag.ts), which a budget in
   * the thread stops on (BudgetRequest.stop, Budget.child).
   */
  stop: StopFlag;
}

export function serveThread<I, E, R>(
  work: (input: I, tools: ThreadTools<E>) => R | Promise<R>,
  opts: { isInputError?: (e: unknown) => boolean; describe?: (e: unknown) => string; transferOf?: (r: R) => ArrayBuffer[] } = {},
): void {
  // Imported for its functions elsewhere (tests, the CLI): only a started thread serves.
  if (isMainThread || !parentPort || !workerData) return;
  const port = parentPort;
  const data = workerData as ThreadData<I>;
  const post = <M extends ThreadMessage<E, R>>(m: M, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);
  const tools: ThreadTools<E> = { emit: (event, transfer) => post({ type: 'event', event }, transfer), stop: new Int32Array(data.stop) };
  Promise.resolve()
    .then(() => work(data.input, tools))
    .then(
      (result) => post({ type: 'done', result }, opts.transferOf?.(result) ?? []),
      (e: unknown) => {
        const err = e as Error;
        post({ type: 'error', message: opts.describe ? opts.describe(e) : String(err?.message ?? e), stack: err?.stack, input: opts.isInputError?.(e) ?? false });
      },
    );
}
