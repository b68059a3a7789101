/**
 * One node during a simulation: the ephemeral tasks launched on it (fetching or running), what they
 * reserve per metric, and the CPU throttling factor that scales their progress.
 */
export class NodeState {
  /** Launched tasks (Transfer or Running). */
  readonly tasks: number[] = [];
  /** Sum of the launched tasks' demand per metric (their containers' reservations). */
  readonly used: Float64Array;
  /** CPU demand of the tasks that compute (not those still fetching their chunk). */
  runningCpu = 0;
  /**
   * Share of its full speed each running task gets: min(1, CPU the regular customers leave / CPU the
   * running tasks demand). Salamander Alg. 3 line 5 (throttleTasksCpu) and Cuckoo III-D (CPU hard limits).
   */
  factor = 1;
  /**
   * Set when the QoS controller killed on this node in the current period: the TaskTracker's container
   * was shrunk (Cuckoo III-D), so no new task is placed here until the next period.
   */
  closed = false;
  /** Last slot counted as interference, so a slot is counted once. */
  lastInterferenceSlot = -1;

  constructor(metrics: number) {
    this.used = new Float64Array(metrics);
  }

  add(task: number, demand: ArrayLike<number>): void {
    this.tasks.push(task);
    for (let m = 0; m < this.used.length; m++) this.used[m] += demand[m];
  }

  remove(task: number, demand: ArrayLike<number>): void {
    const at = this.tasks.indexOf(task);
    if (at < 0) throw new Error(`task ${task} is not on this node`);
    this.tasks[at] = this.tasks[this.tasks.length - 1];
    this.tasks.pop();
    for (let m = 0; m < this.used.length; m++) {
      this.used[m] -= demand[m];
      if (this.used[m] < 1e-12) this.used[m] = 0; // no negative dust from float subtraction
    }
  }
}

/** Throttling factor for CPU demand `cpuDemand` when the regular customers leave `cpuFree`. */
export function throttleFactor(cpuFree: number, cpuDemand: number): number {
  if (cpuDemand <= cpuFree + 1e-9) return 1;
  return Math.max(0, cpuFree) / cpuDemand;
}
