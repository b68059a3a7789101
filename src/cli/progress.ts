import { join } from 'node:path';
import { InputError } from './input';
import type { Progress } from '../engine/contracts/strategy';
import { runInThread, ThreadError } from '../engine/threads/run-in-thread';
import type { CliWork } from './work.thread';

/**
 * The progress of a long command on stderr: on a terminal one line redrawn in place (a bar of the elapsed
 * budget, the phase, the best so far, the bound and the gap), otherwise a plain line at most once a second.
 * `tick()` is called on a timer, so the clock moves while the search finds nothing better.
 */
export class ProgressLine {
  private last: Progress | null = null;
  private readonly started = Date.now();
  private printedAt = 0;
  private drawn = false;

  constructor(
    private readonly out: NodeJS.WriteStream,
    private readonly label: string,
    /** The time budget, for the bar; undefined: the elapsed time alone. */
    private readonly budgetMs?: number,
  ) {}

  update(p: Progress): void {
    this.last = p;
  }

  tick(): void {
    const line = this.line();
    if (this.out.isTTY) {
      const width = Math.max(20, (this.out.columns ?? 100) - 1);
      this.out.write(`\r${line.slice(0, width).padEnd(width)}`);
      this.drawn = true;
    } else if (Date.now() - this.printedAt >= 1000) {
      this.out.write(line + '\n');
      this.printedAt = Date.now();
    }
  }

  /** Ends the redrawn line (a terminal) so what follows starts on its own line. */
  done(): void {
    if (this.drawn) this.out.write('\n');
  }

  private line(): string {
    const elapsed = Date.now() - this.started;
    const p = this.last;
    if (this.budgetMs === undefined) return `${this.label} ${(elapsed / 1000).toFixed(1)} s  running`;
    const share = Math.min(1, elapsed / this.budgetMs);
    const bar = this.out.isTTY ? `[${'#'.repeat(Math.round(share * 20)).padEnd(20, '-')}] ` : '';
    const clock = `${(elapsed / 1000).toFixed(1)}/${(this.budgetMs / 1000).toFixed(1)} s`;
    if (!p) return `${this.label} ${bar}${clock}  starting`;
    const best = p.scheduledTasks > 0 ? `best ${p.scheduledTasks} tasks, makespan ${p.makespanSlots}` : 'nothing placed yet';
    const bound = p.boundSlots === undefined ? '' : `  bound ${p.boundSlots}`;
    const gap = p.gap === null || p.gap === undefined ? '' : `  gap ${(p.gap * 100).toFixed(1)}%`;
    return `${this.label} ${bar}${clock}  ${p.phase ?? 'searching'}  ${best}${bound}${gap}  iterations ${p.iterations}`;
  }
}

/** A long command's computation for runWithProgress. */
export interface ThreadedWork<I> {
  /** The compiled thread entry (serveThread) and its input. */
  file: string;
  input: I;
  /** What the progress line starts with, e.g. `solve ls`. */
  label: string;
  /** A search's budget: the stop flag is raised then, the bar shows it, and Ctrl-C stops it early keeping its best. */
  budgetMs?: number;
  /** When the thread is terminated if it has not answered (a search that overran its budget). */
  hardStopAfterMs?: number;
  /** No progress on stderr. */
  quiet?: boolean;
}

/**
 * Runs a long command's computation on a thread while this one draws its progress on stderr every quarter
 * second (the thread's Progress events, or the elapsed time alone). An input the engine refuses is the
 * user's mistake (InputError, exit 2); another error is Fallow's (exit 1).
 */
export async function runWithProgress<I, R>(w: ThreadedWork<I>): Promise<R> {
  const progress = w.quiet ? null : new ProgressLine(process.stderr, w.label, w.budgetMs);
  const now = Date.now();
  const run = runInThread<I, Progress, R>(w.file, w.input, {
    onEvent: (p) => progress?.update(p),
    softStopAt: w.budgetMs === undefined ? undefined : now + w.budgetMs,
    hardStopAt: w.hardStopAfterMs === undefined ? undefined : now + w.hardStopAfterMs,
  });
  const timer = progress ? setInterval(() => progress.tick(), 250) : null;
  // Only a search keeps its best when stopped; other work ends on Ctrl-C as any process does.
  const interrupt = () => run.stop();
  if (w.budgetMs !== undefined) process.once('SIGINT', interrupt);
  try {
    return await run.result;
  } catch (e) {
    if (e instanceof ThreadError && e.reason === 'input') throw new InputError(e.message);
    if (e instanceof ThreadError && e.reason === 'error') throw new Error(e.message);
    throw e;
  } finally {
    if (timer) clearInterval(timer);
    process.removeListener('SIGINT', interrupt);
    if (w.budgetMs !== undefined) progress?.tick(); // a search's last state: where it ended
    progress?.done();
  }
}

/** The thread entry of every long command (solve, simulate, forecast). */
export const CLI_WORK_THREAD = join(__dirname, 'work.thread.js');

/** Long work without a budget (simulate, forecast) with its elapsed time on stderr. */
export function runCliWork<R>(label: string, input: CliWork, quiet = false): Promise<R> {
  return runWithProgress<CliWork, R>({ file: CLI_WORK_THREAD, input, label, quiet });
}
