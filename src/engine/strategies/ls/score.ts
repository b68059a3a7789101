/**
 * Three-level score of the local search (hard violations, medium scheduled tasks, soft makespan) with
 * the sum of task ends as a last tie-breaker. Lower is better at every level (scheduled is negated).
 */
export class ScoreHistory {
  readonly hard: Int32Array;
  readonly tasks: Int32Array;
  readonly makespan: Int32Array;
  readonly sumEnds: Float64Array;
  constructor(readonly size: number) {
    this.hard = new Int32Array(size);
    this.tasks = new Int32Array(size);
    this.makespan = new Int32Array(size);
    this.sumEnds = new Float64Array(size);
  }
  fill(hard: number, tasks: number, makespan: number, sumEnds: number): void {
    this.hard.fill(hard);
    this.tasks.fill(tasks);
    this.makespan.fill(makespan);
    this.sumEnds.fill(sumEnds);
  }
  set(slot: number, hard: number, tasks: number, makespan: number, sumEnds: number): void {
    this.hard[slot] = hard;
    this.tasks[slot] = tasks;
    this.makespan[slot] = makespan;
    this.sumEnds[slot] = sumEnds;
  }
  /** True when (hard, tasks, makespan, sumEnds) is at least as good as the entry in slot. */
  notWorseThan(slot: number, hard: number, tasks: number, makespan: number, sumEnds: number): boolean {
    return compareScore(hard, tasks, makespan, sumEnds, this.hard[slot], this.tasks[slot], this.makespan[slot], this.sumEnds[slot]) <= 0;
  }
}

/** Negative when a is better than b, 0 when equal, positive when worse (lexicographic). */
export function compareScore(
  ah: number, at: number, am: number, ae: number,
  bh: number, bt: number, bm: number, be: number,
): number {
  if (ah !== bh) return ah - bh;
  if (at !== bt) return bt - at;
  if (am !== bm) return am - bm;
  return ae - be;
}

/** Late acceptance's test for decoded lists: a has more tasks, or as many and a makespan and sum of task ends no larger. */
export function notWorse(a: { tasks: number; makespan: number; taskEnds: number }, b: { tasks: number; makespan: number; taskEnds: number }): boolean {
  return compareScore(0, a.tasks, a.makespan, a.taskEnds, 0, b.tasks, b.makespan, b.taskEnds) <= 0;
}
