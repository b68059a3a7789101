import { ValidationError } from '../model/errors';
import { Model } from '../model/model';
import { Driver } from '../simulate/driver';
import { AcoBpPolicy } from './aco-bp';
import { CuckooPolicy } from './cuckoo';
import { FairPolicy } from './fair';
import { HadoopPolicy } from './hadoop';
import { HmjsPolicy } from './hmjs';
import { RwsPolicy } from './rws';
import { PosumAllocationPolicy } from './posum-allocation';

export const POLICY_NAMES = ['hadoop', 'cuckoo', 'fair', 'fair-nodelay', 'rws', 'hmjs', 'aco-bp', 'edls-sh', 'edls-pr', 'hsrtf', 'locf'] as const;
export type PolicyName = (typeof POLICY_NAMES)[number];

export function makePolicy(name: string, model: Model): Driver {
  if (name === 'hadoop') return new HadoopPolicy(model);
  if (name === 'cuckoo') return new CuckooPolicy(model);
  if (name === 'fair') return new FairPolicy(model);
  if (name === 'fair-nodelay') return new FairPolicy(model, 0);
  if (name === 'rws') return new RwsPolicy(model);
  if (name === 'hmjs') return new HmjsPolicy(model);
  if (name === 'aco-bp') return new AcoBpPolicy(model);
  if (name === 'edls-sh' || name === 'edls-pr' || name === 'hsrtf' || name === 'locf') return new PosumAllocationPolicy(model, name);
  throw new ValidationError('options', [{ path: 'policy', message: `unknown policy "${name}" (one of ${POLICY_NAMES.join(', ')})` }]);
}

export { AcoBpPolicy, CuckooPolicy, FairPolicy, HadoopPolicy, HmjsPolicy, PosumAllocationPolicy, RwsPolicy };
export { hostWeights } from './host-weights';
export { wrrPlacement } from './wrr-placement';
