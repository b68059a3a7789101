/**
 * Worker-thread entry of auto's second ls stream (auto/ls-thread.ts): compiles the instance again, runs
 * ls with its own seed on the caller's budget (rebuilt from its copy, and stopping also on this thread's
 * own stop flag), and posts the schedule's arrays back.
 *
 * It sits above the strategy families, next to the registry it takes ls (and, for ls's revenue mode,
 * the strategies that seed it) from: no family imports the registry, and auto names this file by path only.
 */
import { compile, ignoringTransfers } from '../model/model';
import { Random } from '../random';
import { Budget } from '../budget/budget';
import { StrategyResult } from '../contracts/strategy';
import { getStrategy, lookupStrategy } from './index';
import { serveThread, ThreadTools } from '../threads/thread-entry';
import { LsThreadInput, LsThreadResult } from './auto/ls-thread-protocol';

async function main(input: LsThreadInput, tools: ThreadTools<never>): Promise<LsThreadResult> {
  const compiled = compile(input.doc);
  const model = input.ignoreTransfers ? ignoringTransfers(compiled) : compiled;
  const result: StrategyResult = await getStrategy('ls').run({
    model,
    objective: input.objective,
    revenueUpper: input.revenueUpper,
    rng: new Random(input.seed),
    budget: Budget.fromDoc(input.budget).child(tools.stop),
    lowerBound: input.lowerBound,
    strategy: lookupStrategy,
    report: () => {},
  });
  const s = result.schedule;
  return { node: s.node, start: s.start, accepted: s.accepted, fetch: s.fetch, iterations: result.iterations, stats: result.stats ?? {} };
}

// An error's message is its whole stack (the caller keeps the first line).
serveThread<LsThreadInput, never, LsThreadResult>(main, { describe: (e) => (e instanceof Error ? (e.stack ?? e.message) : String(e)) });
