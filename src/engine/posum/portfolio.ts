import { compile, Model, taskSeconds } from '../model/model';
import type { InstanceDoc, JobSpec, NodeSpec, StageSpec } from '../model/types';
import { POSUM_ALLOCATION_DEFAULTS, POSUM_ALLOCATIONS, PosumAllocation, PosumAllocationParams, PosumAllocationPolicy } from '../policies/posum-allocation';
import { PROVISIONING_DEFAULTS, PROVISIONING_NAMES, ProvisioningName, ProvisioningParams, ProvisioningPolicy } from '../policies/provisioning';
import { getQos } from '../qos';
import type { Driver, Provisioner, Simulator } from '../simulate/simulator';
import { Simulator as Sim, TaskState } from '../simulate/simulator';
import { ActualUsage } from '../simulate/usage';
import { earliestEnd } from './earliest-end';
import { taskEstimates } from './estimates';
import { planPresent, PlanOrderPolicy } from './ls-member';
import type { JobOrderDispatch } from '../policies/job-order-dispatch';
import { PlanDriver } from '../simulate/plan-driver';
import type { PlanDoc } from '../model/types';
import { choose, FC_DEFAULTS, FcWeights, posumScore, PosumScore, ScoredJob } from './score';
import { replayInstance, replayScore } from './replay';

/**
 * POSUM (seeds/002, sections III and V): a portfolio of 4 allocation x 4 provisioning policies. Every
 * `periodSeconds`, and (beyond the paper, `decideOnArrival`) whenever a job is submitted, it takes the present (by default replayed, replay.ts: the jobs submitted so far run again from
 * time 0 with the load observed so far and POSUM's past choices, reaching the live state exactly; or rebuilt as an
 * instance, lookAhead below: what is left of each job, the running tasks as load on their nodes for their
 * predicted remaining time, the leased nodes), and from it, on the regular customers' *forecast* (never the
 * actual future), simulates every member over `lookAheadSeconds` (by default, replayed, until the submitted work
 * is done), scores each (Table I) and switches to the one nearest the ideal point (score.ts choose). All four
 * allocation policies follow the queue from the start, so a switch takes effect at the next free container.
 * Every decision is kept: time, each member's score and distance, the choice.
 */
export interface PortfolioParams {
  periodSeconds: number;
  lookAheadSeconds: number;
  weights: FcWeights;
  /**
   * With the rebuilt look-ahead only (the replay scores as the simulator does):
   * score what a look-ahead leaves unfinished as draining on the capacity the member ends with (drainSeconds),
   * instead of as running until the window's end. Off by default: on bench:posum it made POSUM lease too
   * much (within 5% of the best member on 1 of 20 workloads, against 10 of 20 without it).
   */
  terminalDrain: boolean;
  /**
   * Beyond the paper: Fallow's `ls` joins as a seventeenth member (allocation `ls-plan`): it plans the present
   * within `lsBudgetMs` on the nodes up now, the look-ahead replays the plan, and when chosen the live run
   * follows it as a priority (ls-member.ts), releasing leases as minus-x does.
   */
  lsMember: boolean;
  /**
   * Beyond the paper: the look-ahead also expects recent arrivals to repeat (copies of those jobs, whole,
   * released one window later, and scored like the others; the window: the look-ahead when rebuilt,
   * `echoSeconds` when replayed). On by default with the
   * rebuilt look-ahead, where it put POSUM within 5% of its best member on 40 of 60 workloads against 27
   * without; off by default with the replayed one, the queue alone as in the paper (bench/POSUM.md, seeds 1-60:
   * within 5% of the best member on 86 of 120 workloads with it, 88 without; at or under the median member on
   * 116 either way; measured with the 600-s look-ahead and decisions every period only). Requests and portfolioParams() turn it on with `rebuild` when it is not given.
   */
  echoArrivals: boolean;
  lsBudgetMs: number;
  /**
   * How a look-ahead starts from the present: `rebuild` makes the state at the decision a new instance
   * (lookAhead below); `replay` runs the workload known so far again from time 0 with POSUM's past choices,
   * reaching the live state exactly (replay.ts; the default). `lsMember` needs `rebuild` (a replay cannot
   * follow the plans of past ls choices).
   */
  lookAheadMode: LookAheadMode;
  /**
   * Beyond the paper: decide also when a job is submitted (once an instant), not only every `periodSeconds`. A
   * periodic decision lets the member chosen before the arrival place the new job's first tasks, which then run
   * for minutes whatever the next decision says; deciding at the arrival lets the look-ahead see the job first.
   * bench/POSUM.md, seeds 1-60: within 5% of the best member on 109 of 120 workloads with it and the look-ahead
   * to the end, 94 with that look-ahead alone.
   */
  decideOnArrival: boolean;
  /** With `echoArrivals` and the replay: the window whose arrivals repeat, one window later. */
  echoSeconds: number;
  allocation: PosumAllocationParams;
  provisioning: ProvisioningParams;
}

export const LOOK_AHEAD_MODES = ['replay', 'rebuild'] as const;
export type LookAheadMode = (typeof LOOK_AHEAD_MODES)[number];

/**
 * The replay's default look-ahead: a day, which in practice means until the submitted work is done (a replay stops
 * when no task is left). Scoring the whole known workload, not a window cut through it, judges a member also by the
 * jobs it pushes past the window (bench/POSUM.md, seeds 1-60: within 5% of the best member on 94 of 120 workloads
 * against 88 with 600 s). The rebuilt look-ahead keeps 600 s, where longer ones were measured worse.
 */
export const REPLAY_LOOK_AHEAD_SECONDS = 86_400;
export const REBUILD_LOOK_AHEAD_SECONDS = 600;

/**
 * The look-ahead mode, length and echo setting, given or by default (one rule for requests and stored parameters):
 * the ls member needs `rebuild` (parameters stored before the replay existed name no mode), otherwise `replay`;
 * the look-ahead runs to the end of the submitted work with `replay` and 600 s with `rebuild`; echoed arrivals are
 * on with `rebuild` (where they were measured to help) and off with `replay`.
 */
export function lookAheadSettings(p: { lsMember?: boolean; lookAheadMode?: LookAheadMode; echoArrivals?: boolean; lookAheadSeconds?: number }): {
  lookAheadMode: LookAheadMode;
  echoArrivals: boolean;
  lookAheadSeconds: number;
} {
  const lookAheadMode = p.lookAheadMode ?? (p.lsMember ? 'rebuild' : 'replay');
  const replay = lookAheadMode === 'replay';
  return { lookAheadMode, echoArrivals: p.echoArrivals ?? !replay, lookAheadSeconds: p.lookAheadSeconds ?? (replay ? REPLAY_LOOK_AHEAD_SECONDS : REBUILD_LOOK_AHEAD_SECONDS) };
}

export const PORTFOLIO_DEFAULTS: PortfolioParams = {
  periodSeconds: 120,
  lookAheadSeconds: REPLAY_LOOK_AHEAD_SECONDS,
  weights: FC_DEFAULTS,
  terminalDrain: false,
  lsMember: false,
  echoArrivals: false,
  lsBudgetMs: 200,
  lookAheadMode: 'replay',
  decideOnArrival: true,
  echoSeconds: 600,
  allocation: POSUM_ALLOCATION_DEFAULTS,
  provisioning: PROVISIONING_DEFAULTS,
};

export interface Member {
  allocation: PosumAllocation | 'ls-plan';
  provisioning: ProvisioningName;
}

/** The seventeenth member, when PortfolioParams.lsMember. */
export const LS_MEMBER: Member = { allocation: 'ls-plan', provisioning: 'minus-x' };

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

export const MEMBERS: Member[] = POSUM_ALLOCATIONS.flatMap((allocation) => PROVISIONING_NAMES.map((provisioning) => ({ allocation, provisioning })));

/** Timer payload of a decision (the allocation policies' own timers carry job indexes). */
const DECIDE = 0x3fffffff;

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
  /** The provisioner runs at the portfolio's own period (Provisioner). */
  readonly periodSeconds: number;

  constructor(
    private readonly model: Model,
    private readonly p: PortfolioParams = PORTFOLIO_DEFAULTS,
    /** A replay's POSUM (replay.ts): it takes the choices of the script instead of deciding. */
    private readonly script?: ReplayScript,
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

  prepare(sim: Simulator): void {
    // One of them sets the simulation up (acceptance, slots, replicas); the others only keep queues.
    this.allocations.get(POSUM_ALLOCATIONS[0])!.prepare(sim);
    sim.timer(0, DECIDE);
  }

  onReady(sim: Simulator, i: number): void {
    const j = this.model.taskJob[i];
    if (!this.submitted[j]) (this.submitted[j] = 1), (this.arrived = true);
    for (const a of this.allocations.values()) a.onReady(sim, i);
  }

  onKilled(sim: Simulator, i: number): void {
    for (const a of this.allocations.values()) a.onKilled(sim, i);
  }

  onTimer(sim: Simulator, payload: number): void {
    if (payload !== DECIDE) {
      for (const a of this.allocations.values()) a.onTimer(sim, payload);
      return;
    }
    this.decideOnce(sim, 'period');
    sim.timer(sim.now + this.p.periodSeconds, DECIDE);
  }

  /** One decision an instant: a period's and an arrival's at the same time see the same present. */
  private decideOnce(sim: Simulator, trigger: DecisionTrigger): void {
    if (this.decidedAt === sim.now) return;
    this.decidedAt = sim.now;
    this.rethink(sim, trigger);
  }

  dispatch(sim: Simulator): void {
    if (this.arrived && this.p.decideOnArrival) this.decideOnce(sim, 'arrival');
    this.arrived = false;
    this.allocations.get(this.current.allocation)!.dispatch(sim);
  }

  /** Provisioner (the simulator calls it every provisioning period): the current member's provisioning policy. */
  decide(sim: Simulator): void {
    this.provisioners.get(this.current.provisioning)!.decide(sim);
  }

  /** Simulates every member from the present over the look-ahead and switches to the best; `trigger` goes into the trail. */
  rethink(sim: Simulator, trigger: DecisionTrigger = 'period'): void {
    if (this.script) {
      this.current = scriptedChoice(this.script, sim.now) ?? this.current;
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
   * rethink with the replayed present (replay.ts): the workload known so far runs once from time 0 with the past
   * choices up to the instant of the decision, then a fork of it per member runs on until the look-ahead's end
   * (a fork goes on exactly as that run would: the past is simulated once, not once per member).
   */
  private rethinkByReplay(live: Simulator, started: number, trigger: DecisionTrigger): void {
    const input = replayInstance(this.model, live, this.p.echoSeconds, this.p.echoArrivals);
    if (!input) return; // nothing left to schedule
    const now = live.now;
    const end = now + this.p.lookAheadSeconds;
    const script: ReplayScript = { past: this.trail.map((d) => [d.timeSeconds, d.choice]), from: now, member: null };
    const replayed = new PortfolioPolicy(input.model, this.p, script);
    const past = new Sim(input.model, new ActualUsage(input.model, input.model.doc.usage), replayed, { ...live.options, provisioner: replayed, stopAtSeconds: end });
    past.begin();
    past.advance(now);
    const scores = this.members.map((m) => {
      const sim = past.fork();
      (sim.driver as PortfolioPolicy).script!.member = m;
      const r = sim.runToEnd();
      return { ...m, ...replayScore(input, sim, r, end) };
    });
    this.switchTo(now, scores, started, trigger);
  }

  /** The ls member: a plan of the present on the nodes up now, replayed over the look-ahead as planned. */
  private scorePlan(present: Present, now: number, seed: number): { score: PosumScore; plan: PlanDoc | null } {
    const doc = { ...present.model.doc, nodes: present.model.doc.nodes.flatMap((n, k) => (!n.lease ? [n] : present.leased.includes(k) ? [withoutLease(n)] : [])) };
    const model = compile(doc);
    const plan = planPresent(model, this.p.lsBudgetMs, seed + 1);
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

/**
 * Seconds the work a look-ahead left unfinished takes to drain on the nodes up at its end, net of the
 * forecast regular load of its last slot (the largest over metrics; ten look-aheads when nothing is up).
 * This terminal estimate lets a member that leases now be credited for the jobs it will finish sooner
 * after the window, not only charged for the lease (without it the look-ahead never leases).
 */
export function drainSeconds(model: Model, sim: Simulator, lookAheadSeconds: number): number {
  const { stageSeconds } = taskEstimates(model);
  const work = new Float64Array(model.M);
  for (let i = 0; i < model.nTasks; i++) {
    if (sim.state[i] === TaskState.Done || sim.state[i] === TaskState.Skipped) continue;
    const g = model.taskStage[i];
    for (let m = 0; m < model.M; m++) work[m] += model.stages[g].demand[m] * stageSeconds[g];
  }
  const last = Math.min(model.T - 1, Math.floor(sim.now / model.slotSeconds));
  let worst = 0;
  for (let m = 0; m < model.M; m++) {
    if (!(work[m] > 0)) continue;
    let capacity = 0;
    for (let k = 0; k < model.K; k++) if (sim.up[k]) capacity += model.capacity[k][m] * Math.max(0, 1 - sim.usage.at(k, m, last));
    worst = Math.max(worst, capacity > 1e-9 ? work[m] / capacity : 10 * lookAheadSeconds);
  }
  return worst;
}

/** The present as an instance to simulate from, with each of its jobs' identity for the score. */
interface Present {
  model: Model;
  /** Per job of `model`: its original release, deadline, class and total task seconds (end filled in later). */
  jobs: Omit<ScoredJob, 'endSeconds'>[];
  /** Nodes leased at `sim.now` (indexes into the model's nodes, the same as the present's). */
  leased: number[];
}

/**
 * The state at `sim.now` as an instance over the look-ahead: each submitted job's tasks not launched yet
 * (jobs released later are not known to an online scheduler; with `echoArrivals`, the last look-ahead's
 * arrivals repeat instead), released and due relative to now (stages with
 * none left dropped, with the `after` edges to them; a stage waits for its predecessors that still have
 * some), released and due relative to now; each running task as load on its node for its predicted
 * remaining time (its stage's duration at the node's speed minus what it ran, at least one slot); nodes
 * leased now leased from the look-ahead's start (`leased`; each member may keep or release them), the others
 * leasable as before; the regular customers' forecast (the
 * instance's usage) from the current slot on. Null when nothing is left to launch.
 */
export function lookAhead(model: Model, sim: Simulator, seconds: number, echoArrivals = false): Present | null {
  const S = model.slotSeconds;
  const s0 = Math.floor(sim.now / S + 1e-9);
  const slots = Math.max(1, Math.ceil(seconds / S));
  const doc = model.doc;
  const usage: Record<string, Record<string, number[]>> = {};
  doc.nodes.forEach((n) => {
    usage[n.id] = {};
    for (const m of model.metrics) {
      const series = doc.usage?.[n.id]?.[m];
      usage[n.id][m] = Array.from({ length: slots }, (_, t) => (series && s0 + t < series.length ? series[s0 + t] : 0));
    }
  });
  for (let k = 0; k < model.K; k++)
    for (const i of sim.nodes[k].tasks) {
      const g = model.taskStage[i];
      const left = Math.max(S, taskSeconds(model.stages[g], model.speed[k]) - (sim.now - sim.startedAt[i]));
      const until = Math.min(slots, Math.ceil(left / S));
      model.metrics.forEach((m, mi) => {
        const cap = model.capacity[k][mi];
        if (!(cap > 0)) return;
        const series = usage[doc.nodes[k].id][m];
        for (let t = 0; t < until; t++) series[t] = Math.min(1, series[t] + model.stages[g].demand[mi] / cap);
      });
    }
  // A node leased now stays leasable, leased from the start with what is left of its start-up and minimum
  // lease, so that a member may release it (and is paid for it only while it keeps it).
  const leased: number[] = [];
  const nodes: NodeSpec[] = doc.nodes.map((n, k) => {
    if (!n.lease || sim.leasedAt[k] < 0) return n;
    leased.push(k);
    const since = sim.now - sim.leasedAt[k];
    return { ...n, lease: { startupSeconds: Math.max(0, n.lease.startupSeconds - since), minLeaseSeconds: Math.max(0, n.lease.minLeaseSeconds - since) } };
  });
  const jobs: JobSpec[] = [];
  const identity: Present['jobs'] = [];
  /** Job j with `stages` left, released and due `shift` seconds after it was (an echo), relative to now. */
  const add = (j: number, id: string, stages: StageSpec[], shift: number) => {
    const job = model.jobs[j];
    const spec = doc.jobs[j];
    const release = job.release * S + shift;
    const deadline = job.deadline >= 0 ? job.deadline * S + shift : null;
    jobs.push({
      ...spec,
      id,
      stages,
      releaseSlot: Math.max(0, Math.ceil((release - sim.now) / S - 1e-9)),
      ...(deadline !== null ? { deadlineSlot: Math.max(0, Math.floor((deadline - sim.now) / S + 1e-9)) } : {}),
    });
    // e_i at speed 1 (work in GFLOP at 1 GFLOP/s, or the fixed durations).
    const total = job.stages.reduce((sum, g) => sum + model.stages[g].tasks * taskSeconds(model.stages[g], 1), 0);
    identity.push({ deadlineJob: spec.class === 'deadline' && deadline !== null, releaseSeconds: release, deadlineSeconds: deadline, taskSeconds: total });
  };
  model.jobs.forEach((job, j) => {
    // Only the queue: a job not submitted yet is unknown to an online scheduler.
    if (job.release * S > sim.now + 1e-9) return;
    const spec = doc.jobs[j];
    const stages: StageSpec[] = [];
    for (const g of job.stages) {
      const s = model.stages[g];
      const waiting: number[] = [];
      for (let t = 0; t < s.tasks; t++) {
        const i = s.firstTask + t;
        if (sim.state[i] !== TaskState.Done && sim.state[i] !== TaskState.Skipped && sim.node[i] < 0) waiting.push(t);
      }
      if (!waiting.length) continue;
      const orig = spec.stages.find((x) => x.id === s.id)!;
      stages.push({ ...orig, tasks: waiting.length, ...(orig.blocks ? { blocks: waiting.map((t) => orig.blocks![t]) } : {}) });
    }
    if (!stages.length) return;
    const kept = new Set(stages.map((s) => s.id));
    for (const s of stages) if (s.after) s.after = s.after.filter((a) => kept.has(a));
    add(j, spec.id, stages, 0);
  });
  if (!jobs.length) return null;
  if (echoArrivals)
    model.jobs.forEach((job, j) => {
      const release = job.release * S;
      if (release > sim.now + 1e-9 || release <= sim.now - seconds) return;
      add(j, `${doc.jobs[j].id}-echo-${j}`, doc.jobs[j].stages, seconds);
    });
  const present: InstanceDoc = { ...doc, name: `${doc.name}@${Math.round(sim.now)}`, horizon: { slots, slotSeconds: S }, nodes, usage, jobs };
  return { model: compile(present), jobs: identity, leased };
}

function withoutLease(n: NodeSpec): NodeSpec {
  const { lease: _, ...fixed } = n;
  return fixed;
}

/** A provisioner that first re-leases the nodes leased in the present (at the look-ahead's time 0), then decides as `inner`. */
function resumingLeases(leased: readonly number[], inner: Provisioner): Provisioner {
  let resumed = false;
  return {
    name: inner.name,
    periodSeconds: inner.periodSeconds,
    decide(sim: Simulator): void {
      if (!resumed) for (const k of leased) sim.leaseNode(k);
      resumed = true;
      inner.decide(sim);
    },
  };
}
