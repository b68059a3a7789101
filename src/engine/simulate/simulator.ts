import { Model } from '../model/model';
import { Random } from '../random';
import { BatchSampler, NO_SAMPLES, Sampler, SAMPLE_SECONDS } from './batch-metrics';
import { SimClock } from './clock';
import type { Driver, SimOptions } from './driver';
import { TaskState } from './driver';
import { EventQueue, SimEvent } from './event-queue';
import { CONTROL, FETCHED, FINISH, NODE_BACK, NODE_LOST, NODE_UP, PAUSE, PROVISION, RELEASE, SAMPLE, schedule, STALL, TICK, TIMER } from './events';
import { cloneState } from './fork';
import type { SimulatorView, StageRuns } from './host';
import { TaskInputs } from './inputs';
import { Leases } from './leases';
import { TaskLifecycle } from './lifecycle';
import type { RunReport } from './run-report';
import { NodeState } from './node-state';
import { QosClock } from './qos-clock';
import { assembleReport, RunEnds, runEnds } from './report';
import { NodeRoom } from './room';
import { ActualUsage } from './usage';

export { TaskState } from './driver';
export type { Driver, Provisioner, SimOptions } from './driver';
export type { NodeView, SimulatorView, StageRuns } from './host';
export { defaultQosPeriod, MIN_QOS_PERIOD_SECONDS, QOS_PERIOD_SECONDS, STALL_TIMEOUT_SECONDS } from './settings';
export type { SimSettings } from './settings';
export type { RuntimeTruth } from './truth';

/**
 * Discrete-event simulation of MapReduce tasks on ephemeral capacity (DESIGN.md; Salamander IV,
 * Cuckoo IV). Time is continuous (seconds); the regular customers' actual load is sampled once per slot.
 * The capacity the drivers see and the CPU throttling use each slot's sample for the whole slot; the QoS
 * controller checks every node at slot boundaries, at each launch and, with a period below the slot
 * (qosPeriodSeconds, 100 ms by default), whenever the load interpolated within the slot crosses its
 * threshold (qos-clock.ts). A task runs at its node's speed scaled by the node's CPU throttling factor; a
 * task launched on a node without its chunk fetches it first, and a reduce fetches its share of every map's
 * output, over the sender's and the receiver's links (inputs.ts, transfer.ts); a killed task returns to its
 * driver to be relaunched.
 *
 * This class is the event loop; each part keeps its own state: the leases (leases.ts), the room the nodes
 * offer (room.ts), the tasks' inputs and the links (inputs.ts), the task lifecycle (lifecycle.ts, with the
 * stage gates of stages.ts and the runtimes of truth.ts), the QoS clock (qos-clock.ts) and the report
 * (report.ts). A driver sees it through SimulatorView (host.ts).
 */
export class Simulator implements SimulatorView {
  readonly rng: Random;
  private readonly clock = new SimClock();
  private readonly queue = new EventQueue(4096);
  private readonly event: SimEvent = { time: 0, kind: 0, a: 0, b: 0 };
  private readonly nodeStates: NodeState[];
  private readonly leases: Leases;
  private readonly room: NodeRoom;
  private readonly inputs: TaskInputs;
  private readonly tasks: TaskLifecycle;
  private readonly qos: QosClock;
  private readonly sampler: Sampler;
  private events = 0;
  private startedMs = 0;
  /** Set by pause() or a PAUSE event: advance() returns after the current event. */
  private pauseRequested = false;
  /** A copy taken within the provisioner's decide() (forkInProvision): that event is still to finish, with the copy's provisioner. */
  private inProvision = false;
  /**
   * In a copy without samples (forkWithoutSamples): when its next SAMPLE event is due (Infinity: none), kept out of
   * the event queue. Such an event only moves the clock and lets the driver dispatch, and it comes after every other
   * event of its instant (its priority is the last and no other kind has it), so advance() runs it where the queue
   * would have popped it, without a heap push and pop for each (most of a look-ahead's events). -1: samples queued.
   */
  private sampleAt = -1;

  constructor(
    readonly model: Model,
    readonly usage: ActualUsage,
    readonly driver: Driver,
    readonly options: SimOptions,
  ) {
    this.rng = new Random(options.seed ?? 1);
    this.nodeStates = Array.from({ length: model.K }, () => new NodeState(model.M));
    const cpu = model.metrics.findIndex((m) => options.qos.compressible(m));
    this.leases = new Leases(model, this.clock, this.queue, this.nodeStates, driver.mode);
    this.room = new NodeRoom(model, usage, this.clock, this.nodeStates, this.leases, cpu);
    this.inputs = new TaskInputs(model, this.clock);
    this.tasks = new TaskLifecycle(model, usage, this.clock, this.queue, this.nodeStates, this.leases, this.inputs, options, cpu, driver, this);
    this.qos = new QosClock(model, usage, this.clock, this.queue, this.nodeStates, options.qos, this.room.margin, this.tasks.launchSeq, cpu, options.qosPeriodSeconds);
    this.sampler = new BatchSampler(model);
  }

  // ---- what a driver reads (SimulatorView) ------------------------------------------------------

  get now(): number { return this.clock.now; }
  /** Tests move the clock by hand (a driver cannot: SimulatorView has no setter). */
  set now(t: number) { this.clock.now = t; }
  get slot(): number { return this.clock.slot; }
  get capacityEpoch(): number { return this.clock.capacityEpoch; }
  get accepted(): Uint8Array { return this.tasks.accepted; }
  get replicas(): (number[] | null)[] { return this.inputs.replicas; }
  get slots(): Int32Array { return this.room.slots; }
  get up(): Uint8Array { return this.leases.up; }
  get leasedAt(): Float64Array { return this.leases.leasedAt; }
  get draining(): Uint8Array { return this.leases.draining; }
  get lost(): Uint8Array { return this.leases.lost; }
  get nodes(): readonly NodeState[] { return this.nodeStates; }
  get state(): Uint8Array { return this.tasks.state; }
  get node(): Int32Array { return this.tasks.node; }
  /** Order in which tasks were launched (larger = later): the QoS controllers' kill order. */
  get launchSeq(): Float64Array { return this.tasks.launchSeq; }
  get startedAt(): Float64Array { return this.tasks.startedAt; }
  get endTime(): Float64Array { return this.tasks.endTime; }
  get computeStartedAt(): Float64Array { return this.tasks.computeStartedAt; }
  get kills(): Int32Array { return this.tasks.kills; }
  get remote(): Uint8Array { return this.tasks.remote; }
  get stageDone(): Int32Array { return this.tasks.stages.stageDone; }
  get stageRuns(): StageRuns { return this.tasks.stages.stageRuns; }

  // ---- the event loop ----------------------------------------------------------------------------

  /** Runs the whole simulation and returns its metrics. */
  run(): RunReport {
    this.begin();
    return this.runToEnd();
  }

  /** Sets the run up: the driver prepares, the jobs' releases and the first tick, provisioning and sample are queued. */
  begin(): void {
    this.startedMs = Date.now();
    this.driver.prepare(this);
    this.inputs.stage(this.tasks.accepted);
    this.tasks.admit();
    schedule(this.queue, 0, TICK, 0);
    if (this.options.provisioner) schedule(this.queue, 0, PROVISION, 0);
    schedule(this.queue, 0, SAMPLE, 0);
    (this.options.outages ?? []).forEach((o, n) => {
      schedule(this.queue, o.from, NODE_LOST, o.k, n);
      if (o.to !== Infinity) schedule(this.queue, o.to, NODE_BACK, o.k, n);
    });
  }

  /**
   * Processes the events that come before time `before` (all of them by default), within the horizon; an event
   * at `before` stays queued, so that a fork taken then goes on exactly as this run would. Returns true when it
   * stopped for a pause (pause(), pauseAt()) with events left to process, false otherwise.
   */
  advance(before = Infinity): boolean {
    const horizon = Math.min(this.model.T * this.model.slotSeconds * (this.options.maxWindows ?? 10), this.options.stopAtSeconds ?? Infinity);
    const ev = this.event;
    const tasks = this.tasks;
    if (this.inProvision) {
      // The rest of the PROVISION event the copy was taken in (forkInProvision), as the loop below does it.
      this.inProvision = false;
      this.provision();
      this.driver.dispatch(this);
      if (this.pauseRequested) {
        this.pauseRequested = false;
        if (tasks.remaining > 0) return true;
      }
    }
    while (tasks.remaining > 0) {
      if (this.sampleAt >= 0 && this.sampleAt < this.queue.peekTime()) {
        // The sample kept out of the queue (sampleAt), where the loop below would have run it.
        if (!(this.sampleAt < before) || this.sampleAt > horizon) break;
        this.clock.now = this.sampleAt;
        this.events++;
        this.sampleAt = tasks.remaining > 0 ? this.clock.now + SAMPLE_SECONDS : Infinity;
        this.driver.dispatch(this);
        if (this.pauseRequested) {
          this.pauseRequested = false;
          if (tasks.remaining > 0) return true;
        }
        continue;
      }
      if (!(this.queue.peekTime() < before && this.queue.pop(ev))) break;
      if (ev.time > horizon) break;
      this.clock.now = ev.time;
      this.events++;
      switch (ev.kind) {
        case FINISH:
          tasks.finished(ev.a, ev.b);
          break;
        case FETCHED:
          tasks.fetched(ev.a, ev.b);
          break;
        case TICK:
          this.tick(ev.a);
          break;
        case RELEASE:
          tasks.stages.release(ev.a);
          break;
        case TIMER:
          this.driver.onTimer?.(this, ev.a);
          break;
        case SAMPLE:
          this.sampler.sample(this.clock.now, (k) => this.nodeStates[k].used);
          if (tasks.remaining > 0) schedule(this.queue, this.clock.now + SAMPLE_SECONDS, SAMPLE, 0);
          break;
        case NODE_UP:
          this.leases.comeUp(ev.a, ev.b);
          break;
        case PROVISION:
          this.provision();
          break;
        case STALL:
          tasks.stalled(ev.a, ev.b);
          break;
        case CONTROL:
          if (this.qos.due(ev.a, ev.b)) this.control(ev.a);
          break;
        case NODE_LOST:
          this.loseNode(ev.a);
          break;
        case NODE_BACK:
          this.leases.restore(ev.a);
          if (!this.leases.lost[ev.a]) this.driver.onNodeBack?.(this, ev.a);
          break;
        case PAUSE:
          this.pauseRequested = true;
          break;
      }
      this.driver.dispatch(this);
      if (this.pauseRequested) {
        this.pauseRequested = false;
        if (tasks.remaining > 0) return true;
      }
    }
    return false;
  }

  /** Runs to the end (the work done, or the horizon) and returns the metrics; a pause on the way is ignored. */
  runToEnd(): RunReport {
    while (this.advance());
    return this.report();
  }

  /** The metrics of the run as it stands (after runToEnd, or after a paused loop that ended: closed-loop.ts). */
  report(): RunReport {
    const { tasks, inputs } = this;
    return assembleReport({
      model: this.model,
      now: this.clock.now,
      accepted: tasks.accepted,
      state: tasks.state,
      node: tasks.node,
      kills: tasks.kills,
      remote: tasks.remote,
      startedAt: tasks.startedAt,
      endTime: tasks.endTime,
      staging: inputs.staging,
      leases: this.leases,
      sampler: this.sampler,
      mode: this.driver.mode,
      driver: this.driver.name,
      qos: this.options.qos.name,
      seed: this.options.seed ?? 1,
      reduceSlowstart: tasks.stages.slowstart,
      qosPeriodSeconds: this.qos.period,
      placementBytes: inputs.placementBytes,
      remoteBytes: inputs.remoteBytes,
      interferenceSlots: this.qos.interference,
      stalledTasks: tasks.stalls,
      events: this.events,
      elapsedMs: Date.now() - this.startedMs,
    });
  }

  /** The jobs' ends and the makespan as report() gives them, without the rest of the report (report.ts runEnds). */
  ends(): RunEnds {
    const { tasks } = this;
    return runEnds({ model: this.model, accepted: tasks.accepted, state: tasks.state, endTime: tasks.endTime });
  }

  /**
   * An independent copy of this run as it stands, driver and provisioner included (fork.ts): what it does next
   * is what this run would do, and neither disturbs the other. The model, the regular load and the QoS
   * controller are shared (nothing changes them). The copy's `driver` (and provisioner, when it is the driver) is
   * the driver's copy, which the caller may steer. `swap`: objects of the run replaced in the copy (cloneState), as
   * POSUM's look-ahead gives its fork the forecast for the regular load and shares its own decision trail.
   */
  fork(swap?: ReadonlyMap<unknown, unknown>): Simulator { return cloneState(this, new Set<unknown>([this.model, this.usage, this.options.qos, this.options.runtimeTruth, NO_SAMPLES]), swap); }

  /**
   * fork() for a copy whose report's batch metrics nobody reads (POSUM's look-ahead): the copy takes no samples
   * and leaves the run's behind (NO_SAMPLES), so a copy late in a long run costs no more for them. It runs as the
   * run would: its SAMPLE events still come and change nothing else.
   */
  forkWithoutSamples(swap?: ReadonlyMap<unknown, unknown>): Simulator {
    const copy = this.fork(new Map<unknown, unknown>([...(swap ?? []), [this.sampler, NO_SAMPLES]]));
    if (copy.sampleAt < 0) {
      // Its SAMPLE event (one at most is queued) leaves the queue for sampleAt.
      let at = Infinity;
      copy.queue.retain((kind, _a, _b, time) => kind !== SAMPLE || ((at = time), false));
      copy.sampleAt = at;
    }
    return copy;
  }

  // ---- for a look-ahead that forks this run (POSUM, policies/posum/posum-policy.ts) -----------------

  /**
   * A copy of this run taken by its provisioner within decide(), before it acts: the copy finishes that event
   * with its own provisioner (the copy's, which the caller may steer), then goes on. POSUM's look-ahead runs
   * members that provision alike as one run and copies it where their provisioners part (posum-policy.ts).
   */
  forkInProvision(swap?: ReadonlyMap<unknown, unknown>): Simulator {
    const copy = this.fork(swap);
    copy.inProvision = true;
    return copy;
  }

  /** When the next queued event is due (Infinity: none): a driver may tell the last event before a slot boundary. */
  nextEventTime(): number { return this.sampleAt >= 0 ? Math.min(this.sampleAt, this.queue.peekTime()) : this.queue.peekTime(); }

  /** Jobs not released yet leave this run (a fork that must not know them): their releases dequeued, their tasks skipped (TaskLifecycle.withdraw). */
  withdrawJobs(jobs: ReadonlySet<number>): void {
    this.queue.retain((kind, a) => kind !== RELEASE || !jobs.has(a));
    for (const j of jobs) this.tasks.withdraw(j);
  }

  /** The provisioner decides, and is asked again a period later while tasks remain. */
  private provision(): void {
    this.options.provisioner!.decide(this);
    if (this.tasks.remaining > 0) schedule(this.queue, this.clock.now + this.options.provisioner!.periodSeconds, PROVISION, 0);
  }

  /** A new period: the actual load of slot t applies, throttling is adjusted, the QoS controller runs. */
  private tick(t: number): void {
    this.clock.slot = t;
    this.clock.capacityEpoch++;
    for (let k = 0; k < this.model.K; k++) {
      this.nodeStates[k].closed = false;
      this.tasks.retime(k);
      this.control(k);
    }
    if (this.tasks.remaining > 0) schedule(this.queue, (t + 1) * this.model.slotSeconds, TICK, t + 1);
  }

  /**
   * Node k is lost (an outage): nothing starts there until it is back, and what runs there is killed now,
   * each kill handed to the driver as any other (it relaunches), then the driver hears of the loss.
   */
  private loseNode(k: number): void {
    this.leases.lose(k);
    for (const i of [...this.nodeStates[k].tasks]) this.tasks.kill(i);
    this.clock.capacityEpoch++;
    this.driver.onNodeLost?.(this, k);
  }

  /** The QoS controller checks node k (counting interference) and its victims are killed; within slots, its next check is scheduled. */
  private control(k: number): void {
    const victims = this.qos.check(k);
    if (victims === null) return;
    for (const i of victims) this.tasks.kill(i);
    if (this.qos.withinSlot) this.qos.scheduleNext(k);
  }

  // ---- what a driver may ask, start or stop (SimulatorView) ---------------------------------------

  /** Calls driver.onTimer(sim, payload) at `time`. */
  timer(time: number, payload: number): void {
    schedule(this.queue, time, TIMER, payload);
  }

  pause(): void {
    this.pauseRequested = true;
  }

  /** Stops the event loop at `time` (after that instant's ends, ticks, QoS checks and outages, before its launches). */
  pauseAt(time: number): void {
    schedule(this.queue, time, PAUSE, 0);
  }

  /**
   * Launches a Ready task on node k: at once when the node holds its chunk and needs no other node's output,
   * after fetching its inputs otherwise (a remote task's chunk, a reduce's shuffle; TaskInputs.fetch). The QoS
   * controller looks at the node right away (it polls every 100 ms in Salamander III-D, far below a slot), so
   * an over-committing launch is killed at once; it looks before any input moves (TaskLifecycle.fetch).
   */
  launch(i: number, k: number): void {
    if (this.tasks.state[i] !== TaskState.Ready) throw new Error(`task ${i} is not ready to launch`);
    if (this.freeSlots(k) <= 0) throw new Error(`node ${this.model.nodeIds[k]} has no free task slot`);
    const fetching = this.tasks.place(i, k);
    this.control(k);
    if (fetching) this.tasks.fetch(i, k);
  }

  freeSlots(k: number): number { return this.room.freeSlots(k); }
  accepting(k: number): boolean { return this.leases.accepting(k); }
  freeCapacity(k: number): Float64Array { return this.room.freeCapacity(k); }
  free(k: number, m: number): number { return this.room.free(k, m); }
  headroom(k: number, i: number): number { return this.room.headroom(k, i); }
  starved(k: number): boolean { return this.room.starved(k); }
  isLocal(i: number, k: number): boolean { return this.inputs.isLocal(i, k); }
  runSeconds(i: number, k: number): number { return this.tasks.runtimes.seconds(i, k); }
  fetchSeconds(i: number, k: number): number { return this.inputs.fetchSeconds(i, k); }
  nextPeriod(): number { return (this.clock.slot + 1) * this.model.slotSeconds; }
  leasable(k: number): boolean { return this.leases.leasable(k); }
  releasable(k: number): boolean { return this.leases.releasable(k); }
  uptime(k: number, until: number): number { return this.leases.uptime(k, until); }
  leaseNode(k: number): boolean { return this.leases.lease(k); }
  releaseNode(k: number): boolean { return this.leases.release(k); }
  drainNode(k: number): boolean { return this.leases.drain(k); }
  undrainNode(k: number): boolean { return this.leases.undrain(k); }
}
