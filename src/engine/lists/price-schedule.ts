import type { Model } from '../model/model';
import { Decoder } from './decoder';
import { encodeByStart } from './operators';
import { Schedule } from '../schedule/schedule';

/**
 * A schedule made with compute alone, planned again with priced transfers: its accepted tasks in the order of
 * their starts (ties: task order) decoded by the priced serial SGS (lists/decoder.ts, which plans each task's
 * fetch and may move it to a node where its inputs are cheaper), its rejected jobs left out. A job whose tasks
 * no longer fit the horizon once their fetches are counted is rejected. This is how a strategy that searches
 * with compute alone (exact's MILP, the GA's Alg. 2 runs, aco-bp, tps, cuckoo) gets a plan whose durations
 * price the network: its order kept, its timing made true. `model` must price transfers.
 */
export function priceByStartOrder(model: Model, s: Schedule): Schedule {
  const order = new Int32Array(model.nTasks);
  encodeByStart(s, Int32Array.from({ length: model.nTasks }, (_, i) => i), order, new Int32Array(model.T + 2));
  const skip = Uint8Array.from(s.accepted, (a) => (a ? 0 : 1));
  const out = new Schedule(model);
  new Decoder(model).decode(order, skip, null, out);
  return out;
}
