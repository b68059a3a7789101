import { compile, Model } from '../../model/model';
import type { PlanDoc } from '../../model/types';
import { posumScore, PosumScore, ScoredJob } from '../../evaluate/posum-score';
import { getQos } from '../../qos';
import type { Driver, Provisioner } from '../../simulate/driver';
import { TaskState } from '../../simulate/driver';
import type { SimulatorView } from '../../simulate/host';
import { Simulator as Sim } from '../../simulate/simulator';
import { PlanDriver } from '../../simulate/plan-driver';
import { ActualUsage } from '../../simulate/usage';
import type { Strategy } from '../../contracts/strategy';
import type { JobOrderDispatch } from '../dispatch/job-order-dispatch';
import type { Policy } from '../policy';
import { POSUM_ALLOCATIONS, PosumAllocation, PosumAllocationPolicy } from './allocation';
import { choose } from './choose';
import { earliestEnd } from './earliest-end';
import { drainSeconds, lookAhead, Present, resumingLeases, withoutLease } from './look-ahead';
import { planPresent, PlanOrderPolicy } from './ls-member';
import { LookAheadPeer } from './look-ahead-peer';
import { LS_MEMBER, Member, MEMBERS, PORTFOLIO_DEFAULTS, PortfolioParams } from './params';
import { PROVISIONING_NAMES, ProvisioningName, ProvisioningPolicy } from './provisioning';
import { LiveInput, liveInput, replayInstance, replayScore, submittedBy, waiting } from './replay';
import { portfolioRequestIssues } from './request';

/** One of POSUM's decisions, as its report() gives them (the report's `decisions`). */
export interface Decision {
  timeSeconds: number;
  /**
   * Every member's predicted score and its weighted distance to the ideal point: replayed, the score of the whole
   * run so far until the look-ahead's end (the past is the same for every member); rebuilt, that of the present's jobs.
   */
  scores: (Member & PosumScore & { distance: number })[];
  choice: Member;
  /** What called the decision: the period's timer, or a job's submission (decideOnArrival). One decision an instant. */
  trigger: DecisionTrigger;
  elapsedMs: number;
}

export type DecisionTrigger = 'period' | 'arrival';

/**
 * What a replay's POSUM does instead of deciding: at a past decision's time, what was chosen then; from `from` on,
 * `member` (the one under trial; null: no change). Data, not a closure, so that a fork of the replay copies it.
 */
export interface ReplayScript {
  past: [number, Member][];
  from: number;
  member: Member | null;
}

function scriptedChoice(script: ReplayScript, t: number): Member | null {
  if (t >= script.from - 1e-9) return script.member;
  return script.past.find(([at]) => Math.abs(at - t) < 1e-9)?.[1] ?? null;
}

/** Timer payload of a decision (the allocation policies' own timers carry job indexes). */
const DECIDE = 0x3fffffff;

/**
 * Stands in a member's look-ahead for the allocation policies it never dispatches with (neither the member's nor
 * the one current when the look-ahead starts), so that their queues are not copied: an allocation policy changes
 * nothing in the run until it dispatches (its queues are its own, it sets timers only when it dispatches).
 */
const IDLE_ALLOCATION = {
  onReady(): void {},
  onKilled(): void {},
  onTimer(): void {},
  dispatch(): void {
    throw new Error('POSUM: an allocation policy left out of a look-ahead was asked to dispatch');
  },
};

/**
 * POSUM (seeds/002, sections III and V): a portfolio of 4 allocation x 4 provisioning policies. Every
 * `periodSeconds`, and (beyond the paper, `decideOnArrival`) whenever a job is submitted, it takes the present (by default replayed, replay.ts: the jobs submitted so far run again,
 * from a copy of the live run at the slot's start, with the load observed so far and POSUM's past choices, reaching
 * the live state exactly; or rebuilt as an
 * instance, look-ahead.ts lookAhead: what is left of each job, the running tasks as load on their nodes for their
 * predicted remaining time, the leased nodes), and from it, on the regular customers' *forecast* (never the
 * actual future), simulates every member over `lookAheadSeconds` (by default, replayed, until the submitted work
 * is done), scores each (Table I) and switches to the one nearest the ideal point (choose.ts). All four
 * allocation policies follow the queue from the start, so a switch takes effect at the next free container.
 * Every decision is kept: time, each member's score and distance, the choice.
 */
export class PortfolioPolicy implements Driver, Provisioner {
  readonly name = 'posum';
  readonly mode = 'policy' as const;
  readonly trail: Decision[] = [];
  private readonly allocations: Map<PosumAllocation | 'ls-plan', JobOrderDispatch>;
  private readonly planOrder: PlanOrderPolicy;
  private readonly members: Member[];
  private readonly provisioners: Map<ProvisioningName, ProvisioningPolicy>;
  private current: Member = MEMBERS[0];
  private readonly submitted: Uint8Array;
  private arrived = false;
  private decidedAt = -1;
  /**
   * The replay's state at the start of slot `slot` (before its first event), which the decisions of that slot fork
   * instead of simulating the past again (rethinkByReplay): a copy of the live run made the replay's (`input`: the jobs
   * not submitted by then withdrawn, the forecast after the slot). Kept before the slots where POSUM may decide;
   * null before the first, and in copies.
   */
  private slotStart: { slot: number; sim: Sim; input: LiveInput } | null = null;
  /** When the period's next decision is due. */
  private nextPeriodic = 0;
  /** The provisioner runs at the portfolio's own period (Provisioner). */
  readonly periodSeconds: number;
  /**
   * The replay always from time 0, as before the live run was forked (slower, the same decisions): for the tests and
   * benchmarks that check they are the same.
   */
  replayFromTimeZero = false;
  /**
   * In a look-ahead's copy (rethinkByReplay): the members this run stands for, one allocation policy and its
   * provisioning policies, the script's member first. They run as one while their provisioners would act alike
   * (ProvisioningPolicy.target); where they part, decide() copies the run for each other part into `parted`.
   */
  private group: Member[] | null = null;
  private parted: Sim[] | null = null;
  /** In a look-ahead's copy: the script's member has been switched to (before, every member runs the choice then current). */
  private switched = false;
  /** The other thread sharing the look-aheads (shareLookAheads), or none. */
  private peer: LookAheadPeer | null = null;

  constructor(
    private readonly model: Model,
    private readonly p: PortfolioParams = PORTFOLIO_DEFAULTS,
    /** A replay's POSUM (replay.ts): it takes the choices of the script instead of deciding (set on a fork of the live run). */
    private script?: ReplayScript,
    /** The registered strategies (PolicyContext.strategy), through which the ls member gets `ls`. */
    private readonly strategy?: (name: string) => Strategy | undefined,
  ) {
    if (!(p.periodSeconds > 0)) throw new Error('periodSeconds must be > 0');
    if (p.lookAheadMode === 'replay' && p.lsMember) throw new Error('lookAheadMode replay does not take the ls member');
    if (!(p.lookAheadSeconds > 0)) throw new Error('lookAheadSeconds must be > 0');
    this.periodSeconds = p.provisioning.periodSeconds;
    this.planOrder = new PlanOrderPolicy(model);
    this.allocations = new Map<PosumAllocation | 'ls-plan', JobOrderDispatch>([
      ...POSUM_ALLOCATIONS.map((a) => [a, new PosumAllocationPolicy(model, a, p.allocation)] as [PosumAllocation, JobOrderDispatch]),
      ['ls-plan', this.planOrder],
    ]);
    this.members = p.lsMember ? [...MEMBERS, LS_MEMBER] : MEMBERS;
    this.provisioners = new Map(PROVISIONING_NAMES.map((n) => [n, new ProvisioningPolicy(model, n, p.provisioning)]));
    this.submitted = new Uint8Array(model.jobs.length);
  }

  get choice(): Member {
    return this.current;
  }

  prepare(sim: SimulatorView): void {
    // One of them sets the simulation up (acceptance, slots, replicas); the others only keep queues.
    this.allocations.get(POSUM_ALLOCATIONS[0])!.prepare(sim);
    sim.timer(0, DECIDE);
  }

  onReady(sim: SimulatorView, i: number): void {
    const j = this.model.taskJob[i];
    if (!this.submitted[j]) (this.submitted[j] = 1), (this.arrived = true);
    for (const a of this.allocations.values()) a.onReady(sim, i);
  }

  onKilled(sim: SimulatorView, i: number): void {
    for (const a of this.allocations.values()) a.onKilled(sim, i);
  }

  onTimer(sim: SimulatorView, payload: number): void {
    if (payload !== DECIDE) {
      for (const a of this.allocations.values()) a.onTimer(sim, payload);
      return;
    }
    this.decideOnce(sim, 'period');
    this.nextPeriodic = sim.now + this.p.periodSeconds;
    sim.timer(this.nextPeriodic, DECIDE);
  }

  /** One decision an instant: a period's and an arrival's at the same time see the same present. */
  private decideOnce(sim: SimulatorView, trigger: DecisionTrigger): void {
    if (this.decidedAt === sim.now) return;
    this.decidedAt = sim.now;
    this.rethink(sim, trigger);
  }

  dispatch(sim: SimulatorView): void {
    if (this.arrived && this.p.decideOnArrival) this.decideOnce(sim, 'arrival');
    this.arrived = false;
    this.allocations.get(this.current.allocation)!.dispatch(sim);
    this.keepSlotStart(sim);
  }

  /**
   * After the last event before a slot boundary (dispatch is the last thing an event does), keeps a copy of the
   * live run as the replay's state for the decisions of the coming slot, if it may have one. Only where the replay
   * can start from the live run's model (no echoes), and only in the live run (not in a replay, which has a script).
   */
  private keepSlotStart(sim: SimulatorView): void {
    if (this.script || this.replayFromTimeZero || this.p.lookAheadMode !== 'replay' || this.p.echoArrivals || !(sim instanceof Sim)) return;
    const S = this.model.slotSeconds;
    const at = sim.nextEventTime();
    const slot = Math.floor(at / S + 1e-9);
    if (at === Infinity || !(slot > Math.floor(sim.now / S + 1e-9)) || this.slotStart?.slot === slot || !this.mayDecideIn(sim, slot)) return;
    const input = liveInput(this.model, sim, slot);
    // The copy shares the decision trail (a script never adds to it) and keeps no copy of the previous one.
    const copy = sim.forkWithoutSamples(new Map<unknown, unknown>([...this.unchanging(), [this.slotStart, null], [sim.usage, input.usage]]));
    copy.withdrawJobs(input.hidden);
    this.slotStart = { slot, sim: copy, input };
  }

  /**
   * POSUM may decide in `slot` with something waiting: a job is submitted then (decideOnArrival), or the period's
   * decision falls in it while a job submitted by then is unfinished.
   */
  private mayDecideIn(sim: SimulatorView, slot: number): boolean {
    const S = this.model.slotSeconds;
    if (this.p.decideOnArrival && this.model.jobs.some((job) => job.release === slot)) return true;
    if (!(this.nextPeriodic < (slot + 1) * S - 1e-9)) return false;
    return this.model.jobs.some((job) => {
      if (job.release > slot) return false;
      for (let i = job.firstTask; i < job.firstTask + job.taskCount; i++) if (sim.state[i] !== TaskState.Done && sim.state[i] !== TaskState.Skipped) return true;
      return false;
    });
  }

  /** Provisioner (the simulator calls it every provisioning period): the current member's provisioning policy. */
  decide(sim: SimulatorView): void {
    const target = this.switched && this.group && this.group.length > 1 ? this.part(sim) : undefined;
    this.provisioners.get(this.current.provisioning)!.decide(sim, target);
  }

  /**
   * A look-ahead's run standing for several members (`group`) before its provisioner acts: members whose
   * provisioning policies would now move to different targets part. This run goes on with the current member's
   * part; each other part gets a copy of the run taken here, which finishes this event with its own first member
   * (Simulator.forkInProvision) and goes into `parted`, to be run by rethinkByReplay. Returns the current member's
   * target (its provisioner then need not ask again).
   */
  private part(sim: SimulatorView): number | undefined {
    const parts = new Map<number, Member[]>();
    let current: number | undefined;
    for (const m of this.group!) {
      const target = this.provisioners.get(m.provisioning)!.target(sim);
      if (m === this.current) current = target;
      const part = parts.get(target);
      if (part) part.push(m);
      else parts.set(target, [m]);
    }
    if (parts.size === 1) return current;
    for (const part of parts.values()) {
      if (part.includes(this.current)) {
        this.group = part;
        continue;
      }
      const copy = (sim as Sim).forkInProvision(new Map<unknown, unknown>([...this.unchanging(), [this.parted, this.parted], [IDLE_ALLOCATION, IDLE_ALLOCATION]]));
      const policy = copy.driver as PortfolioPolicy;
      policy.group = part;
      policy.current = part[0];
      policy.script!.member = part[0];
      this.parted!.push(copy);
    }
    return current;
  }

  /** Simulates every member from the present over the look-ahead and switches to the best; `trigger` goes into the trail. */
  rethink(sim: SimulatorView, trigger: DecisionTrigger = 'period'): void {
    if (this.script) {
      this.current = scriptedChoice(this.script, sim.now) ?? this.current;
      if (this.script.member && sim.now >= this.script.from - 1e-9) this.switched = true;
      return;
    }
    const started = Date.now();
    if (this.p.lookAheadMode === 'replay') return this.rethinkByReplay(sim, started, trigger);
    const present = lookAhead(this.model, sim, this.p.lookAheadSeconds, this.p.echoArrivals);
    if (!present) return; // nothing left to schedule
    let plan: PlanDoc | null = null;
    const scores = this.members.map((m, n) => {
      const seed = this.trail.length * this.members.length + n;
      if (m.allocation !== 'ls-plan') return { ...m, ...this.score(present, m, sim.now, seed) };
      const scored = this.scorePlan(present, sim.now, seed);
      plan = scored.plan;
      return { ...m, ...scored.score };
    });
    this.switchTo(sim.now, scores, started, trigger, plan);
  }

  /** Switches to the member nearest the ideal point of `scores` (following the ls plan when it is chosen) and keeps the decision. */
  private switchTo(now: number, scores: (Member & PosumScore)[], started: number, trigger: DecisionTrigger, plan: PlanDoc | null = null): void {
    const best = choose(scores, this.p.weights);
    this.current = this.members[best.index];
    if (this.current.allocation === 'ls-plan' && plan) this.planOrder.follow(plan, now, this.model.slotSeconds);
    this.trail.push({
      timeSeconds: now,
      scores: scores.map((s, n) => ({ ...s, distance: Math.round(best.distances[n] * 1e4) / 1e4 })),
      choice: this.current,
      trigger,
      elapsedMs: Date.now() - started,
    });
  }

  /**
   * rethink with the replayed present (replay.ts): the workload known so far runs with the past choices up to the
   * instant of the decision, then a fork of it per member runs on until the look-ahead's end (a fork goes on exactly
   * as that run would; from the live run's copy, one fork per allocation policy, parting where provisioning does:
   * part()). By default that run is the copy of the live run kept at the slot's start (keepSlotStart),
   * so no decision simulates the past again; with echoed arrivals, in the first slot, or with replayFromTimeZero,
   * it runs from time 0.
   */
  private rethinkByReplay(live: SimulatorView, started: number, trigger: DecisionTrigger): void {
    const now = live.now;
    const end = now + this.p.lookAheadSeconds;
    const S = this.model.slotSeconds;
    const slot = Math.floor(now / S + 1e-9);
    const submitted = submittedBy(this.model, now);
    const kept = this.slotStart?.slot === slot && !this.p.echoArrivals && !this.replayFromTimeZero ? this.slotStart : null;
    if (kept && kept.input.known.length === submitted.filter((x) => x).length) {
      // From the replay's state at the slot's start (keepSlotStart): on to the instant of the decision with POSUM's
      // choices since the slot began, then a copy per allocation policy (part()). The past before the slot is not simulated again.
      if (!waiting(this.model, live, submitted)) return; // nothing left to schedule
      const keep = this.unchanging();
      const script = (member: Member | null): ReplayScript => ({ past: this.trail.filter((d) => d.timeSeconds >= slot * S - 1e-9).map((d) => [d.timeSeconds, d.choice]), from: now, member });
      let past = kept.sim;
      if (past.nextEventTime() < now) {
        past = past.fork(keep);
        (past.driver as PortfolioPolicy).script = script(null);
        while (past.advance(now));
      }
      const replayed = past.driver as PortfolioPolicy;
      // The members of one allocation policy run as one until their provisioning policies part (part()).
      const scored = new Map<Member, PosumScore>();
      const simulateGroup = (allocation: Member['allocation']) => {
        const group = this.members.filter((m) => m.allocation === allocation);
        const parted: Sim[] = [];
        const idle = new Map<unknown, unknown>([...keep, [parted, parted], [IDLE_ALLOCATION, IDLE_ALLOCATION]]);
        for (const [name, a] of replayed.allocations) if (name !== replayed.current.allocation && name !== allocation) idle.set(a, IDLE_ALLOCATION);
        const first = past.fork(idle);
        const policy = first.driver as PortfolioPolicy;
        policy.script = script(group[0]);
        policy.group = group;
        policy.parted = parted;
        (first.options as { stopAtSeconds?: number }).stopAtSeconds = end;
        const runs = [first];
        for (let sim = runs.pop(); sim; sim = runs.pop()) {
          while (sim.advance());
          const score = replayScore(kept.input, sim, sim.ends(), end);
          for (const m of (sim.driver as PortfolioPolicy).group!) scored.set(m, score);
          runs.push(...parted.splice(0));
        }
      };
      const allocations = [...new Set(this.members.map((m) => m.allocation))];
      allocations.forEach((a, n) => {
        if (!this.peer || this.peer.simulates(n)) simulateGroup(a);
      });
      if (this.peer) this.swapScores(scored, allocations, simulateGroup);
      const scores = this.members.map((m) => ({ ...m, ...scored.get(m)! }));
      return this.switchTo(now, scores, started, trigger);
    }
    // From time 0: the submitted jobs (and echoes) as an instance of their own, once, then a copy per member.
    const input = replayInstance(this.model, live, this.p.echoSeconds, this.p.echoArrivals);
    if (!input) return; // nothing left to schedule
    const script: ReplayScript = { past: this.trail.map((d) => [d.timeSeconds, d.choice]), from: now, member: null };
    const replayed = new PortfolioPolicy(input.model, this.p, script);
    const past = new Sim(input.model, new ActualUsage(input.model, input.model.doc.usage), replayed, { ...live.options, provisioner: replayed, stopAtSeconds: end });
    past.begin();
    past.advance(now);
    const scores = this.members.map((m) => {
      const sim = past.fork();
      (sim.driver as PortfolioPolicy).script!.member = m;
      while (sim.advance());
      return { ...m, ...replayScore(input, sim, sim.ends(), end) };
    });
    this.switchTo(now, scores, started, trigger);
  }

  /**
   * Another thread runs this same run and simulates the other half of each decision's groups (look-ahead-peer.ts):
   * the scores are swapped instead of simulated here. Only for the live run of a replayed look-ahead.
   */
  shareLookAheads(side: 0 | 1, buffer: SharedArrayBuffer): LookAheadPeer {
    if (!this.sharesLookAheads) throw new Error('POSUM shares look-aheads only in the live run of a replayed look-ahead');
    return (this.peer = new LookAheadPeer(side, buffer, this.members.length));
  }

  /** Whether shareLookAheads may be called: the live run (no script) of a replayed look-ahead. */
  get sharesLookAheads(): boolean {
    return !this.script && this.p.lookAheadMode === 'replay';
  }

  /** The size of the buffer two sides share (LookAheadPeer.bytes). */
  get lookAheadBytes(): number {
    return LookAheadPeer.bytes(this.members.length);
  }

  /** The other side's scores into `scored`; the groups it did not simulate simulated here when it is gone. */
  private swapScores(scored: Map<Member, PosumScore>, allocations: Member['allocation'][], simulateGroup: (a: Member['allocation']) => void): void {
    const theirs = this.peer!.swap(this.trail.length, this.members.map((m) => scored.get(m)));
    if (theirs) {
      this.members.forEach((m, n) => {
        if (!scored.has(m) && theirs[n]) scored.set(m, theirs[n]);
      });
      return;
    }
    for (const a of allocations) if (this.members.some((m) => m.allocation === a && !scored.has(m))) simulateGroup(a);
  }

  /** What copies of the live run share with it: the decision trail (a script never adds to it), the parameters, the members (each one too: a look-ahead's groups hold them). */
  private unchanging(): Map<unknown, unknown> {
    return new Map<unknown, unknown>([this.trail, this.p, this.members, ...this.members].map((x) => [x, x]));
  }

  /** The ls member: a plan of the present on the nodes up now, replayed over the look-ahead as planned. */
  private scorePlan(present: Present, now: number, seed: number): { score: PosumScore; plan: PlanDoc | null } {
    const doc = { ...present.model.doc, nodes: present.model.doc.nodes.flatMap((n, k) => (!n.lease ? [n] : present.leased.includes(k) ? [withoutLease(n)] : [])) };
    const model = compile(doc);
    const plan = planPresent(this.strategy, model, this.p.lsBudgetMs, seed + 1);
    const sim = new Sim(model, new ActualUsage(model, model.doc.usage), new PlanDriver(model, plan), { qos: getQos('none'), seed: seed + 1, maxWindows: 1 });
    const r = sim.run();
    const jobs: ScoredJob[] = r.jobs.map((run, j) => ({ ...present.jobs[j], endSeconds: now + (run.endSeconds ?? Math.max(this.p.lookAheadSeconds, earliestEnd(model, sim, j))) }));
    const nodes = model.doc.nodes.map((n) => ({ uptimeSeconds: r.makespanSeconds, costPerHour: n.costPerHour ?? 0 }));
    return { score: posumScore(jobs, nodes, now + this.p.lookAheadSeconds), plan };
  }

  private score(present: Present, m: Member, now: number, seed: number): PosumScore {
    const model = present.model;
    const sim = new Sim(model, new ActualUsage(model, model.doc.usage), new PosumAllocationPolicy(model, m.allocation as PosumAllocation, this.p.allocation), {
      qos: getQos('none'),
      seed: seed + 1,
      provisioner: resumingLeases(present.leased, new ProvisioningPolicy(model, m.provisioning, this.p.provisioning)),
      maxWindows: 1,
    });
    const r = sim.run();
    // What the look-ahead leaves: the unfinished work drains on the capacity the member ends with.
    const lookEnd = Math.max(sim.now, r.makespanSeconds);
    const drain = this.p.terminalDrain ? drainSeconds(model, sim, this.p.lookAheadSeconds) : 0;
    // Unfinished: draining after the window, or (the default) running until the window's end at least, and
    // until the earliest its tasks allow (earliest-end.ts: a long task's end is known, not the window's).
    const unfinishedEnd = this.p.terminalDrain ? lookEnd + drain : this.p.lookAheadSeconds;
    const jobs: ScoredJob[] = r.jobs.map((run, j) => ({
      ...present.jobs[j],
      endSeconds: now + (run.endSeconds ?? (this.p.terminalDrain ? unfinishedEnd : Math.max(unfinishedEnd, earliestEnd(model, sim, j)))),
    }));
    const paidUntil = (k: number) => (drain > 0 && sim.up[k] ? lookEnd + drain : model.doc.nodes[k].lease ? lookEnd : r.makespanSeconds);
    // A lease still running at the end is paid at least to its minimum lease, which the window may cut short.
    // (Charging it also until the tasks it runs end, as a busy node cannot be released, was tried: without
    // the same horizon for the jobs' gains it kept POSUM from leasing where it had to; bench/POSUM.md.)
    const minimumEnd = (k: number) => (sim.leasedAt[k] >= 0 ? sim.leasedAt[k] + model.doc.nodes[k].lease!.minLeaseSeconds : 0);
    const nodes = model.doc.nodes.map((n, k) => ({ uptimeSeconds: sim.uptime(k, Math.max(paidUntil(k), minimumEnd(k))), costPerHour: n.costPerHour ?? 0 }));
    return posumScore(jobs, nodes, now + unfinishedEnd);
  }
}


/** POSUM registered as a policy: the portfolio drives and provisions; its decisions go into the report. */
export const posum: Policy<PortfolioParams> = {
  name: 'posum',
  description: "POSUM's portfolio: every period (and at arrivals) simulates its 16 members over the look-ahead and switches to the best",
  issues: (request) => portfolioRequestIssues(request),
  create({ model, posum: params, strategy }) {
    const portfolio = new PortfolioPolicy(model, params, undefined, strategy);
    return { driver: portfolio, provisioner: portfolio, report: () => ({ decisions: portfolio.trail }) };
  },
};
