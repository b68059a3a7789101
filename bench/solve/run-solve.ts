/**
 * Runs one solve in a child process (default) or in this process, with a hard time limit on the child,
 * and never throws: a failure becomes an outcome with ok: false and its message.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { RESULT_MARK, SolveJob, solveOne } from './child';
import { SolveOutcome } from './types';

export interface RunnerOptions {
  inProcess: boolean;
  /** Hard limit for a child: budget * factor + slack. */
  timeoutFactor: number;
  timeoutSlackMs: number;
}

export async function runSolve(job: SolveJob, o: RunnerOptions): Promise<SolveOutcome> {
  if (o.inProcess) {
    try {
      return await solveOne(job);
    } catch (e) {
      return { ok: false, error: String(e) };
    }
  }
  const childJs = path.join(__dirname, 'child.js');
  const limit = Math.round(job.budgetMs * o.timeoutFactor + o.timeoutSlackMs);
  return new Promise<SolveOutcome>((resolve) => {
    const child = spawn(process.execPath, [childJs, JSON.stringify(job)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, limit);
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      if (stderr.length < 20000) stderr += d;
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ ok: false, error: `cannot start child: ${e.message}` });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const line = stdout.split('\n').find((l) => l.startsWith(RESULT_MARK));
      if (line) {
        try {
          resolve(JSON.parse(line.slice(RESULT_MARK.length)) as SolveOutcome);
          return;
        } catch {
          /* fall through */
        }
      }
      const why = timedOut
        ? `killed after ${limit} ms (budget ${job.budgetMs} ms)`
        : `child exited with ${signal ?? code} without a result`;
      resolve({ ok: false, error: `${why}${stderr ? ': ' + stderr.trim().split('\n').slice(-3).join(' | ').slice(0, 400) : ''}`, errorKind: timedOut ? 'Timeout' : 'Crash' });
    });
  });
}
