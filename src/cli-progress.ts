import { join } from 'node:path';
import { InputError } from './cli-input';
import type { Progress } from './engine/strategies/strategy';
import { runInThread, ThreadError } from './engine/threads/run-in-thread';
import type { CliWork } from './cli-work.thread';

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

/**
 * Runs a long command's computation (cli-work.thread.ts) on a thread while this one shows its elapsed time
 * on stderr (quiet: nothing). An input the engine refuses is the user's mistake (InputError, exit 2).
 */
export async function runWithProgress<R>(label: string, work: CliWork, quiet = false): Promise<R> {
  const progress = quiet ? null : new ProgressLine(process.stderr, label);
  const timer = progress ? setInterval(() => progress.tick(), 250) : null;
  try {
    return await runInThread<CliWork, never, R>(join(__dirname, 'cli-work.thread.js'), work).result;
  } catch (e) {
    if (e instanceof ThreadError && e.reason === 'input') throw new InputError(e.message);
    if (e instanceof ThreadError && e.reason === 'error') throw new Error(e.message);
    throw e;
  } finally {
    if (timer) clearInterval(timer);
    progress?.done();
  }
}
