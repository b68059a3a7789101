import { Model } from '../../model/model';
import { Random } from '../../random';
import { decreasingJobOrder, rffdOnce } from '../../lists/job-orders';
import { Strategy, StrategyContext, StrategyResult } from '../../contracts/strategy';
import { MakespanMutation } from './alg2';
import { Decoder } from '../../lists/decoder';
import { Individual, ThirdObjective } from '../../lists/individual';
import { Justifier } from '../../lists/justify';
import { crowdedBetter, selectSurvivors } from './nsga2';
import { subsetLimits, subsetSearch } from '../../job-sets/subset-search';
import { greedyBoundSet } from '../../job-sets/bound-set';
import { Schedule } from '../../schedule/schedule';
import { advanceTasks, densityJobOrder, encodeByStart, moveRandomTasks, ox2, tasksOfJobs, toggleJobs, workPerTask } from '../../lists/operators';

/** When the member from the greedy bound set joins the population (seedFromGreedySet): share of the budget. */
const GREEDY_MEMBER_SHARE = 0.4;

export interface GaParams {
  /** Population size when the budget allows (Salamander: 50); smaller budgets get at least minPopulation. */
  population: number;
  minPopulation: number;
  /** Generations the budget should allow at least; the population shrinks to make room for them. */
  targetGenerations: number;
  /** Probability that a child is made by OX2 rather than copied from its first parent. */
  crossoverRate: number;
  /** Probability that a crossover child is also mutated (a copied child always is). */
  mutationRate: number;
  /** Probability that a child also gets Salamander's Alg. 2 makespan mutation on its schedule. */
  alg2Rate: number;
  /** Probability that a child gets forward-backward improvement (the best always does). */
  fbiRate: number;
  /** Third NSGA objective (see Individual.objectives). */
  third: ThirdObjective;
  /** Initial members whose job order is by increasing work per task (for overloaded instances). */
  densitySeeds: number;
}

/**
 * Defaults, measured on the instances of ../shared (see the report of the change): crossover is the
 * main source of new schedules because every child decodes to a feasible one (0.9, NSGA-II's usual
 * rate); mutation 0.3 on top, and always on copies so that no generation makes clones; Alg. 2 is
 * cheap but seldom improves a decoded schedule (0.1); forward-backward improvement is the strongest
 * operator on makespan but costs two decodes (0.2, plus every new best).
 */
export const DEFAULT_GA_PARAMS: GaParams = {
  population: 50,
  minPopulation: 10,
  targetGenerations: 25,
  crossoverRate: 0.9,
  mutationRate: 0.3,
  alg2Rate: 0.1,
  fbiRate: 0.2,
  third: 'jobEnds',
  densitySeeds: 2,
};

/** NSGA-II over task priority lists, seeded by Alg. 1, as in Salamander's GA strategy (III-B2). */
export function makeGa(params: GaParams = DEFAULT_GA_PARAMS, name = 'ga'): Strategy {
  return {
    name,
    description: 'NSGA-II genetic algorithm (Salamander III-B2): rffd-seeded, OX2 crossover, Alg. 2 and list mutations, forward-backward improvement',
    run: (ctx) => new GaRun(ctx, params).run(),
  };
}

export const ga: Strategy = makeGa();

class GaRun {
  private readonly model: Model;
  private readonly rng: Random;
  private readonly decoder: Decoder;
  private readonly justifier: Justifier;
  private readonly alg2: MakespanMutation;
  private readonly spare: Individual[] = [];
  private pop: Individual[] = [];
  private readonly best: Individual;
  private readonly scratch: Individual;
  private iterations = 0;
  private hasBest = false;
  private improvements = 0;
  private generations = 0;
  private greedyMemberDone = false;
  /** Tasks of the greedy bound set's member (the best of its search), once it ran. */
  private greedyMemberTasks: number | null = null;
  private readonly started = Date.now();
  // Reused buffers of the operators.
  private readonly childOrder: Int32Array;
  private readonly skip: Uint8Array;
  private readonly mark: Uint8Array;
  private readonly buf: Int32Array;
  private readonly count: Int32Array;
  /** Alg. 1's job length divided by the job's tasks: what a job costs per scheduled task. */
  private readonly workPerTask: Float64Array;

  constructor(
    private readonly ctx: StrategyContext,
    private readonly params: GaParams,
  ) {
    this.model = ctx.model;
    this.rng = ctx.rng;
    const n = this.model.nTasks;
    this.decoder = new Decoder(this.model);
    this.justifier = new Justifier(this.model);
    this.alg2 = new MakespanMutation(this.model);
    this.best = new Individual(this.model);
    this.scratch = new Individual(this.model);
    this.childOrder = new Int32Array(n);
    this.skip = new Uint8Array(this.model.jobs.length);
    this.mark = new Uint8Array(n);
    this.buf = new Int32Array(n);
    this.count = new Int32Array(this.model.T + 2);
    this.workPerTask = workPerTask(this.model);
  }

  run(): StrategyResult {
    this.initialise();
    while (!this.stopped()) {
      if (this.greedyMemberDue()) this.seedFromGreedySet();
      const offspring = this.breed();
      this.survive(offspring);
      this.generations++;
    }
    return {
      schedule: this.best.sched.clone(),
      iterations: this.iterations,
      stats: {
        population: this.pop.length,
        generations: this.generations,
        improvements: this.improvements,
        ...(this.greedyMemberTasks !== null && { greedyMemberTasks: this.greedyMemberTasks }),
      },
    };
  }

  private stopped(): boolean {
    const b = this.best;
    return this.ctx.budget.stopNow(this.iterations) || (this.hasBest && b.tasks === this.model.nTasks && b.makespan <= this.ctx.lowerBound);
  }

  /**
   * Population from Alg. 1 (rffd): the first member is rffd's own first construction; the others are
   * Alg. 1 with fresh random draws (decreasing job order, random node among the earliest finishers,
   * left-out jobs tried again at the end), every second one with a random job order instead, so that
   * overloaded instances start with different sets of accepted jobs; the first `densitySeeds` of those
   * use the order by work per task, the greedy answer to "most tasks in the room there is".
   */
  private initialise(): void {
    const { model, rng } = this;
    const first = this.alloc();
    first.sched.copyFrom(rffdOnce(model, rng));
    this.encodeSchedule(first);
    this.iterations++;
    this.admit(first);
    this.pop.push(first);
    let t0 = 0;
    let size = this.params.population;
    for (let m = 1; m < size && !this.stopped(); m++) {
      // Members 5..9 time the decoder once it is warm (minPopulation is at least 10).
      if (m === 5) t0 = performance.now();
      const jobs =
        m <= 2 * this.params.densitySeeds && m % 2 === 0
          ? this.densityOrder()
          : m % 2 === 1
            ? decreasingJobOrder(model, rng)
            : rng.shuffle(model.jobs.map((_, j) => j));
      tasksOfJobs(model, jobs, this.childOrder);
      const ind = this.alloc();
      this.decoder.decode(this.childOrder, null, rng, ind.sched, ind.order, true);
      this.iterations++;
      ind.evaluate();
      this.admit(ind);
      this.pop.push(ind);
      if (m === 9) size = this.populationSize((performance.now() - t0) / 5);
    }
    this.seedFromSubsets();
    this.survive([]);
  }

  /**
   * When not every job fits: one more member from the bound-guided search over accepted job sets
   * (job-sets/subset-search.ts, most tasks first), started from the best member, so that crossover can spread
   * a set the random job orders above did not reach.
   */
  private seedFromSubsets(): void {
    const { model, ctx } = this;
    if (!this.hasBest || this.best.tasks === model.nTasks || this.stopped()) return;
    const r = subsetSearch(model, this.best.sched, this.rng, subsetLimits(ctx.budget, () => ctx.budget.stopNow(this.iterations)), { order: 'tasks' });
    this.iterations += r.steps;
    this.addMember(r.best);
  }

  /**
   * Later in the run (GREEDY_MEMBER_SHARE of it), one member from the greedy bound set's subsets
   * (job-sets/bound-set.ts). Not at the start: the greedy set's member is often the best there, and the
   * population then gathers around its set, which on some instances is a trap (pc1-1200-overload: 765
   * tasks with it from the start, 769-772 without); added later it only wins where the job orders
   * have not found better by then (pc1-2500 at load 1.3: about 1,660 tasks, the member about 1,700).
   */
  private seedFromGreedySet(): void {
    const { model, ctx } = this;
    this.greedyMemberDone = true;
    if (!this.hasBest || this.best.tasks === model.nTasks || this.stopped()) return;
    const stop = () => ctx.budget.stopNow(this.iterations);
    const barred = greedyBoundSet(model, stop);
    if (!barred) return;
    const r = subsetSearch(model, this.best.sched, this.rng, subsetLimits(ctx.budget, stop), { barred });
    this.iterations += r.steps;
    this.greedyMemberTasks = r.best.scheduledTasks();
    if (this.addMember(r.best)) this.survive([]);
  }

  /** Adds a copy of `s` to the population unless it is the best member itself; true when added. */
  private addMember(s: Schedule): boolean {
    if (s === this.best.sched) return false; // nothing better than the incumbent
    const ind = this.alloc();
    ind.sched.copyFrom(s);
    this.encodeSchedule(ind);
    ind.evaluate();
    this.admit(ind);
    this.pop.push(ind);
    return true;
  }

  /** True once GREEDY_MEMBER_SHARE of the budget (of the iterations, under a limit) has gone. */
  private greedyMemberDue(): boolean {
    if (this.greedyMemberDone) return false;
    const { maxIterations, deadline } = this.ctx.budget;
    if (Number.isFinite(maxIterations)) return this.iterations >= GREEDY_MEMBER_SHARE * maxIterations;
    return Date.now() >= this.started + GREEDY_MEMBER_SHARE * (deadline - this.started);
  }

  /** The member's chromosome from its schedule: accepted tasks by start, then the rejected jobs' tasks. */
  private encodeSchedule(ind: Individual): void {
    for (let i = 0; i < this.model.nTasks; i++) this.buf[i] = i;
    encodeByStart(ind.sched, this.buf, ind.order, this.count);
  }

  private densityOrder(): number[] {
    return densityJobOrder(this.model, this.workPerTask, this.rng);
  }

  /**
   * Salamander's 50 when the budget allows targetGenerations generations of it, fewer otherwise. With
   * an iteration limit the size depends only on that limit, so seeded runs stay reproducible.
   */
  private populationSize(msPerDecode: number): number {
    const { population, minPopulation, targetGenerations } = this.params;
    const { maxIterations, deadline } = this.ctx.budget;
    const decodes = Number.isFinite(maxIterations)
      ? maxIterations
      : (deadline - Date.now()) / Math.max(msPerDecode, 0.01);
    return Math.max(minPopulation, Math.min(population, Math.floor(decodes / targetGenerations)));
  }

  /** One generation of offspring: binary tournaments, OX2, mutations, decoding. */
  private breed(): Individual[] {
    const { rng, params } = this;
    const offspring: Individual[] = [];
    while (offspring.length < this.pop.length && !this.stopped()) {
      const p1 = this.tournament();
      const p2 = this.tournament();
      for (let j = 0; j < this.model.jobs.length; j++) this.skip[j] = p1.sched.accepted[j] ? 0 : 1;
      const crossed = rng.next() < params.crossoverRate;
      // OX2 selection rate drawn per child: small rates make small changes to p1, large ones import
      // most of p2's order.
      if (crossed) ox2(p1.order, p2.order, 0.05 + 0.45 * rng.next(), rng, this.childOrder, this.mark, this.buf);
      else this.childOrder.set(p1.order);
      if (!crossed || rng.next() < params.mutationRate) this.mutateOrder(p1);
      const child = this.alloc();
      this.decoder.decode(this.childOrder, this.skip, null, child.sched, child.order, true);
      this.iterations++;
      // Alg. 2 moves tasks of a decoded schedule with their compute alone: not where transfers are priced.
      if (!this.model.pricesTransfers && rng.next() < params.alg2Rate && !this.stopped()) {
        this.alg2.apply(child.sched, 1 + rng.int(3), rng);
        this.buf.set(child.order);
        encodeByStart(child.sched, this.buf, child.order, this.count);
        this.iterations++;
      }
      child.evaluate();
      if (rng.next() < params.fbiRate) this.justify(child);
      this.admit(child);
      offspring.push(child);
    }
    return offspring;
  }

  /**
   * List mutations of the child's chromosome: move random tasks, advance the tasks that end at p1's
   * makespan (Alg. 2's makespan reduction in list form), or change which jobs are accepted.
   */
  private mutateOrder(p1: Individual): void {
    const { rng, model } = this;
    const n = model.nTasks;
    const r = rng.next();
    const rejected = p1.tasks < n;
    if (rejected && r < 0.3) this.toggleJobs(p1);
    else if (r < 0.65) {
      const critical: number[] = [];
      for (let i = 0; i < n; i++) if (p1.sched.node[i] >= 0 && p1.sched.end(i) === p1.makespan) critical.push(i);
      rng.shuffle(critical);
      advanceTasks(this.childOrder, critical.slice(0, 1 + rng.int(4)), Math.max(1, Math.ceil(n / 4)), rng, this.buf);
    } else moveRandomTasks(this.childOrder, 1 + rng.int(3), rng.next() < 0.5 ? Math.max(1, Math.ceil(n / 20)) : n, rng);
  }

  private toggleJobs(p1: Individual): void {
    toggleJobs(this.model, p1.sched.accepted, this.childOrder, this.skip, this.workPerTask, this.rng, this.buf);
  }

  /** Forward-backward improvement, repeated while it helps. */
  private justify(ind: Individual): void {
    const s = this.scratch;
    for (let round = 0; round < 4 && !this.stopped(); round++) {
      this.iterations++;
      if (!this.justifier.backward(ind.sched, ind.makespan, ind.order, this.childOrder)) return;
      for (let j = 0; j < this.model.jobs.length; j++) this.skip[j] = ind.sched.accepted[j] ? 0 : 1;
      this.decoder.decode(this.childOrder, this.skip, null, s.sched, s.order);
      this.iterations++;
      s.evaluate();
      if (!s.betterThan(ind)) return;
      ind.copyFrom(s);
    }
  }

  /** Keeps the best schedule seen; a new best gets forward-backward improvement and is reported. */
  private admit(ind: Individual): void {
    if (this.hasBest && !ind.betterThan(this.best)) return;
    this.justify(ind);
    this.hasBest = true;
    this.best.copyFrom(ind);
    this.improvements++;
    this.ctx.report(this.iterations, ind.tasks, ind.makespan);
  }

  private tournament(): Individual {
    const a = this.pop[this.rng.int(this.pop.length)];
    const b = this.pop[this.rng.int(this.pop.length)];
    return crowdedBetter(a.rank, a.crowd, b.rank, b.crowd) ? a : b;
  }

  /**
   * NSGA-II survival over parents + offspring. Copies of a schedule already present are pushed behind
   * everything else, so that one good schedule cannot fill the population with clones.
   */
  private survive(offspring: Individual[]): void {
    const all = this.pop.concat(offspring);
    const size = this.pop.length;
    const DUP = 1e9;
    const points = all.map((ind, q) => {
      const dup = all.some((o, r) => r < q && o.sameSchedule(ind));
      const o = ind.objectives(this.params.third);
      return dup ? o.map((v) => v + DUP) : o;
    });
    const rank = new Float64Array(all.length);
    const crowd = new Float64Array(all.length);
    const keep = selectSurvivors(points, size, rank, crowd);
    const kept = new Uint8Array(all.length);
    this.pop = keep.map((q) => ((kept[q] = 1), (all[q].rank = rank[q]), (all[q].crowd = crowd[q]), all[q]));
    all.forEach((ind, q) => kept[q] || this.spare.push(ind));
  }

  private alloc(): Individual {
    return this.spare.pop() ?? new Individual(this.model);
  }
}
