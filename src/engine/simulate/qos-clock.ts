/**
 * When a controller that checks a node every `period` seconds first acts within a slot, given that the
 * regular customers' load moves linearly inside the slot (ActualUsage.within) and that the node's tasks do
 * not change meanwhile (every launch, end or kill reschedules).
 *
 * Its check acts as soon as some metric's load U(t) exceeds the controller's threshold for the node
 * (QosController.threshold). U is linear on the slot, so the earliest such instant t* is solvable; a
 * controller polling at every multiple of `period` first acts at the first multiple after t* (at t* the
 * load only equals the threshold). Scheduling one control event there is equivalent to polling, up to
 * exact ties, without an event every 100 ms per node.
 */

/**
 * First time >= `from` at which a load going linearly from `a` (at `start`) to `b` (at `start + length`)
 * reaches `threshold`; Infinity when it does not within the slot.
 */
export function crossingTime(a: number, b: number, threshold: number, start: number, length: number, from: number): number {
  if (threshold === Infinity) return Infinity;
  const now = a + ((b - a) * (from - start)) / length;
  if (now >= threshold) return from;
  if (b <= a || b < threshold) return Infinity; // not rising, or not that far within the slot
  return start + ((threshold - a) * length) / (b - a);
}

/** The first multiple of `period` strictly after `t` (when a poller would first see the load past its threshold). */
export function nextPoll(t: number, period: number): number {
  const n = Math.floor(t / period) + 1;
  // In floating point n * period may round back to t itself (251 * 0.1 from 25.1): then one period more.
  return n * period > t ? n * period : (n + 1) * period;
}
