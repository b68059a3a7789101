import { Model } from '../model/model';

/**
 * Task slots of Cuckoo's TaskTracker on each host, sized from the forecast (Cuckoo III-A step 7 and
 * III-C): the container that runs the TaskTracker gets the host's forecast unused CPU minus the safety
 * margin ("if the forecast builder estimates that 12 cores are used in a 32 cores machine ... and sm is
 * 10%, only 18 cores are considered"), one slot per task's cores, at most Hadoop's configured 20 (IV-A).
 * The cores are the host weight of Alg. 1 turned back into cores: weight / (speed x window seconds) is the
 * mean free CPU over the window. The slots are fixed for the whole run (Salamander IV-B: Cuckoo's "fixed
 * number of slots"); only the placement planner's forecast sizes them. A host with any weight keeps one.
 */
export function containerSlots(model: Model, weights: Float64Array, accepted: Uint8Array, maxSlots: number): Int32Array {
  const cpu = model.metrics.findIndex((m) => m.toLowerCase() === 'cpu');
  const slots = new Int32Array(model.K).fill(maxSlots);
  if (cpu < 0) return slots;
  let perTask = 0;
  for (const s of model.stages) if (accepted[s.job]) perTask = Math.max(perTask, s.demand[cpu]);
  if (!(perTask > 0)) return slots;
  const windowSeconds = model.T * model.slotSeconds;
  for (let k = 0; k < model.K; k++) {
    const cores = weights[k] / (model.speed[k] * windowSeconds);
    slots[k] = weights[k] > 0 ? Math.min(maxSlots, Math.max(1, Math.floor(cores / perTask + 1e-9))) : 0;
  }
  return slots;
}
