import { ValidationError } from '../model/errors';
import { acoBp } from './aco-bp/aco-bp';
import { auto } from './auto/auto';
import { cuckoo } from './cuckoo/cuckoo';
import { edf } from './edf/edf';
import { exact } from './exact/exact';
import { fifo } from './fifo/fifo';
import { ga } from './ga/ga';
import { ls } from './ls/ls';
import { portfolio } from '../policies/posum/members-strategy';
import { rffd } from './rffd/rffd';
import { Strategy } from '../contracts/strategy';
import { tps } from './tps/tps';

const registry = new Map<string, Strategy>();
for (const s of [rffd, ls, exact, ga, tps, fifo, edf, cuckoo, acoBp, portfolio, auto]) registry.set(s.name, s);

export function registerStrategy(s: Strategy): void {
  registry.set(s.name, s);
}

export function strategyNames(): string[] {
  return [...registry.keys()];
}

/**
 * The registered strategy called `name`, or undefined: what solve() puts in StrategyContext.strategy,
 * through which a strategy runs another without importing it.
 */
export function lookupStrategy(name: string): Strategy | undefined {
  return registry.get(name);
}

export function getStrategy(name: string): Strategy {
  const s = registry.get(name);
  if (!s)
    throw new ValidationError('options', [{ path: 'strategy', message: `unknown strategy "${name}" (one of ${strategyNames().join(', ')})` }]);
  return s;
}
