import { Model } from '../../model/model';
import { Schedule } from '../../schedule/schedule';
import { objectivesOf } from './decoder';

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
  }

  copyFrom(o: Individual): void {
    this.sched.copyFrom(o.sched);
    this.order.set(o.order);
    this.tasks = o.tasks;
    this.makespan = o.makespan;
    this.sumEnds = o.sumEnds;
  }

  /**
   * NSGA objectives, all minimised: scheduled tasks (negated), makespan, and the sum of job ends, which
   * tells apart the many schedules that share a makespan and rewards finishing the other jobs early
   * (room the critical job can later use).
   */
  objectives(): number[] {
    return [-this.tasks, this.makespan, this.sumEnds];
  }

  /** objectives() with every missing task costing more than any makespan (resp. sum of ends) can. */
  lexObjectives(): number[] {
    const missing = this.model.nTasks - this.tasks;
    const T1 = this.model.T + 1;
    return [-this.tasks, this.makespan + T1 * missing, this.sumEnds + T1 * this.model.jobs.length * missing];
  }

  /** Salamander's final choice, lexicographic: more tasks, then a smaller makespan (sum of ends breaks ties). */
  betterThan(o: Individual): boolean {
    if (this.tasks !== o.tasks) return this.tasks > o.tasks;
    if (this.makespan !== o.makespan) return this.makespan < o.makespan;
    return this.sumEnds < o.sumEnds;
  }

  sameObjectives(o: Individual): boolean {
    return this.tasks === o.tasks && this.makespan === o.makespan && this.sumEnds === o.sumEnds;
  }
}
