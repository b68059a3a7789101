/**
 * Thread entry of a solve: the search runs off the worker process's main thread, so the event loop that
 * renews BullMQ job locks, writes progress and hears cancellations is never starved by it. The search
 * itself is src/work/solve.ts, the same as `fallow solve`'s.
 */
import type { SolveOutcome } from '../../engine/solve';
import type { Progress } from '../../engine/contracts/strategy';
import { serveThread } from '../../engine/threads/thread-entry';
import { runSolve, SolveInput } from '../../work/solve';

serveThread<SolveInput, Progress, SolveOutcome>(runSolve);
