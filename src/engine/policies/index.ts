import { ValidationError } from '../model/errors';
import { acoBp } from './aco-bp/aco-bp';
import { cuckoo } from './cuckoo/cuckoo';
import { fair, fairNoDelay } from './fair/fair';
import { hadoop } from './hadoop/hadoop';
import { hmjs } from './hmjs/hmjs';
import type { Policy } from './policy';
import { posumAllocations } from './posum/members';
import { posum } from './posum/posum-policy';
import { rws } from './rws/rws';

/**
 * The online policies by name (the online twin of strategies/index.ts). The order is the one the API's enum
 * and the CLI's help list them in: the baselines, POSUM's four allocation policies, then POSUM itself.
 * A new policy: its folder under policies/ and one entry here.
 */
const registry = new Map<string, Policy>();
for (const p of [hadoop, cuckoo, fair, fairNoDelay, rws, hmjs, acoBp, ...posumAllocations, posum] as Policy[]) registry.set(p.name, p);

export function policyNames(): string[] {
  return [...registry.keys()];
}

/** The registered policy called `name`, or undefined. */
export function lookupPolicy(name: string): Policy | undefined {
  return registry.get(name);
}

export function getPolicy(name: string): Policy {
  const p = registry.get(name);
  if (!p) throw new ValidationError('options', [{ path: 'policy', message: `unknown policy "${name}" (one of ${policyNames().join(', ')})` }]);
  return p;
}
