/**
 * A stop request every thread can see: one Int32 in a SharedArrayBuffer, non-zero once raised. A
 * synchronous search loop reads it directly (no message could reach a loop that never yields), another
 * thread raises it through its own view of the same buffer, and an asynchronous wait hears it through
 * `watchStopFlags`.
 */
export type StopFlag = Int32Array;

export function newStopFlag(): StopFlag {
  return new Int32Array(new SharedArrayBuffer(4));
}

/** The buffer behind a flag, to hand to another thread: only a flag of newStopFlag's making will do. */
export function stopFlagBuffer(flag: StopFlag): SharedArrayBuffer {
  if (!(flag.buffer instanceof SharedArrayBuffer) || flag.byteOffset !== 0) throw new TypeError('a stop flag must be a SharedArrayBuffer Int32 (newStopFlag())');
  return flag.buffer;
}

export function stopRaised(flag: StopFlag): boolean {
  return Atomics.load(flag, 0) !== 0;
}

/** Raises the flag; the watches of this thread (watchStopFlags) hear it at once, as an abort's listeners would. */
export function raiseStop(flag: StopFlag): void {
  Atomics.store(flag, 0, 1);
  if (watches.size > 0) checkWatches();
}

/**
 * How often the watched flags are read: another thread raises a flag in shared memory without any event
 * on this one. An asynchronous wait hears such a stop at most this late (a raise on this thread, at once).
 */
const WATCH_POLL_MS = 20;

interface Watch {
  flags: readonly StopFlag[];
  onRaised(): void;
}

const watches = new Set<Watch>();
let poll: NodeJS.Timeout | undefined;

/**
 * Calls `onRaised` once, when any of `flags` is raised (at once when one already is). Returns the
 * function that ends the watch. The poll behind it runs only while a watch is open and is unref'd, so it
 * never keeps the process alive.
 */
export function watchStopFlags(flags: readonly StopFlag[], onRaised: () => void): () => void {
  const watch: Watch = { flags, onRaised };
  if (flags.some(stopRaised)) {
    onRaised();
    return () => undefined;
  }
  watches.add(watch);
  if (!poll) {
    poll = setInterval(checkWatches, WATCH_POLL_MS);
    poll.unref();
  }
  return () => unwatch(watch);
}

function unwatch(watch: Watch): void {
  watches.delete(watch);
  if (watches.size === 0 && poll) {
    clearInterval(poll);
    poll = undefined;
  }
}

function checkWatches(): void {
  for (const watch of [...watches]) {
    if (!watches.has(watch) || !watch.flags.some(stopRaised)) continue;
    unwatch(watch);
    watch.onRaised();
  }
}
