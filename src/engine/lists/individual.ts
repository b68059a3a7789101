import { Model } from '../model/model';
import { Schedule } from '../schedule/schedule';
import { objectivesOf } from './decoder';

export type ThirdObjective = 'jobEnds' | 'taskEnds' | 'none';

/**
 * A member of the population: a feasible schedule (the phenotype Salamander evolves: node and start
 * of every task) and its chromosome, a task priority list that decodes to the same or a similar
 * schedule and on which crossover and the list mutations work. Rejected jobs are the jobs the
 * schedule leaves out; children inherit them as jobs to skip.
 */
export class Individual {
  readonly sched: Schedule;
  readonly order: Int32Array;
  tasks = 0;
  makespan = 0;
  sumEnds = 0;
  taskEnds = 0;
  hash = 0;
  rank = 0;
  crowd = 0;

  constructor(readonly model: Model) {
    this.sched = new Schedule(model);
    this.order = new Int32Array(model.nTasks);
  }

  evaluate(): void {
    const o = objectivesOf(this.model, this.sched);
    this.tasks = o.tasks;
    this.makespan = o.makespan;
    this.sumEnds = o.sumEnds;
    this.taskEnds = o.taskEnds;
    this.hash = o.hash;
  }

  copyFrom(o: Individual): void {
    this.sched.copyFrom(o.sched);
    this.order.set(o.order);
    this.tasks = o.tasks;
    this.makespan = o.makespan;
    this.sumEnds = o.sumEnds;
    this.taskEnds = o.taskEnds;
    this.hash = o.hash;
  }

  /**
   * NSGA objectives, all minimised: scheduled tasks (negated), makespan and a third one that tells
   * apart the many schedules sharing a makespan: the sum of job ends (rewards finishing the other jobs
   * early, room the critical job can later use) or of all task ends (differs from the makespan on
   * one-job instances too).
   */
  objectives(third: ThirdObjective): number[] {
    const o = [-this.tasks, this.makespan];
    if (third !== 'none') o.push(third === 'jobEnds' ? this.sumEnds : this.taskEnds);
    return o;
  }

  /** Salamander's final choice, lexicographic: more tasks, then a smaller makespan (sum of ends breaks ties). */
  betterThan(o: Individual): boolean {
    if (this.tasks !== o.tasks) return this.tasks > o.tasks;
    if (this.makespan !== o.makespan) return this.makespan < o.makespan;
    return this.sumEnds < o.sumEnds;
  }

  /** Same schedule (up to swapping identical tasks), as far as objectives and hash can tell. */
  sameSchedule(o: Individual): boolean {
    return this.hash === o.hash && this.tasks === o.tasks && this.makespan === o.makespan && this.taskEnds === o.taskEnds;
  }
}
