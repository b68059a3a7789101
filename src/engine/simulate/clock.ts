/**
 * The run's clock, shared by the simulator's parts: the simulated time, the current slot (whose sample of
 * the regular customers' load applies) and the capacity epoch, a logical clock of room changes.
 */
export class SimClock {
  /** Seconds since the window's start. */
  now = 0;
  slot = 0;
  /**
   * Bumped whenever a node may have room it did not have (a task ended or was killed, a new period, a node
   * came up or was taken back): drivers skip their dispatch scan when it has not moved and nothing else happened.
   */
  capacityEpoch = 0;
}
