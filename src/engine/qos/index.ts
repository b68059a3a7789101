import { ValidationError } from '../model/errors';
import { cuckooQos } from './cuckoo';
import { cuckooSalamanderReadingQos } from './cuckoo-salamander-reading';
import { isCpu } from './salamander';
import { salamanderQos } from './salamander';
import { QosController } from './types';

/** `none`: never kills (only the CPU throttling physics acts): shows what the controllers prevent. */
export const noQos: QosController = { name: 'none', compressible: isCpu, check: () => [], threshold: () => Infinity };

const controllers: Record<string, QosController> = {
  salamander: salamanderQos,
  cuckoo: cuckooQos,
  'cuckoo-salamander-reading': cuckooSalamanderReadingQos,
  none: noQos,
};

export const QOS_NAMES = Object.keys(controllers);

export function getQos(name: string): QosController {
  const q = Object.prototype.hasOwnProperty.call(controllers, name) ? controllers[name] : undefined;
  if (!q) throw new ValidationError('options', [{ path: 'qos', message: `unknown QoS controller "${name}" (one of ${QOS_NAMES.join(', ')})` }]);
  return q;
}

export { cuckooQos, cuckooSalamanderReadingQos, salamanderQos };
export type { QosController, QosNodeView } from './types';
