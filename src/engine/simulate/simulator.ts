import { Model } from '../model/model';
import { QosController, QosNodeView } from '../qos/types';
import { Random } from '../random';
import { BatchSampler, SAMPLE_SECONDS } from './batch-metrics';
import { EventQueue, SimEvent } from './event-queue';
import { jobRevenue, JobRun, pct, SimReport, summarise } from './metrics';
import { NodeState, throttleFactor } from './node-state';
import { crossingTime, nextPoll } from './qos-clock';
import { NodeLinks, pathSeconds, stagingSeconds } from './transfer';
import { ActualUsage } from './usage';
import { cloneState } from './fork';
import { posumScore, PosumScore } from '../evaluate/posum-score';
import { roundScore } from '../evaluate/posum-kpi';

/**
 * Who decides where and when tasks run: a plan to follow (plan-driver.ts) or an online policy
 * (src/engine/policies: Hadoop's default scheduler, Cuckoo). The simulator owns time, resources, the
 * network and the QoS controller; the driver only launches ready tasks through `sim.launch`.
 */
export interface Driver {
  readonly name: string;
  readonly mode: 'plan' | 'policy';
  /**
   * Once, before the clock starts: accept or reject jobs (`sim.accepted`), place chunk replicas
   * (`sim.replicas`) and set the task slots of each node (`sim.slots`). May schedule timers.
   */
  prepare(sim: Simulator): void;
  /**
   * Task i became runnable: its job is released and every task of its predecessor stages is done, or, with
   * early reduces (`reduceSlowstart` < 1), enough of them that it may start fetching their output.
   */
  onReady(sim: Simulator, task: number): void;
  /**
   * Task i was killed on node k (by the QoS controller or the stall timeout) and must be relaunched.
   * Must not launch anything itself.
   */
  onKilled(sim: Simulator, task: number, node: number): void;
  /** A timer the driver set with `sim.timer(time, payload)` went off. */
  onTimer?(sim: Simulator, payload: number): void;
  /** Launch what can be launched now. Called after every event that may have changed something. */
  dispatch(sim: Simulator): void;
}

/** Task life cycle in the simulator. */
export const TaskState = {
  /** Job not released yet, or a predecessor stage still has tasks to finish (map -> reduce barrier). */
  Blocked: 0,
  /** Runnable, waiting for the driver (first launch or relaunch after a kill). */
  Ready: 1,
  /**
   * Launched, fetching its inputs: its chunk from another node, its predecessors' output (a reduce's
   * shuffle), or, launched early, waiting for predecessor tasks still running to write theirs.
   */
  Transfer: 2,
  Running: 3,
  Done: 4,
  /** Its job was rejected: never runs. */
  Skipped: 5,
} as const;

export interface SimOptions {
  qos: QosController;
  /**
   * How often the QoS controller checks each node, in simulated seconds: default QOS_PERIOD_SECONDS
   * (Salamander III-D: "periodically (e.g., every 100 ms)"). Below the slot length the controller sees the
   * regular customers' load move linearly within the slot (ActualUsage.within) and acts at the first
   * period after the load crosses its threshold (qos-clock.ts); equal to the slot length, it checks at slot
   * boundaries only, on each slot's value (the per-slot controller, for comparison). Every launch is also
   * checked at once, in both modes. Must be in (0, slotSeconds].
   */
  qosPeriodSeconds?: number;
  seed?: number;
  /** Stop the clock after this many window lengths even if tasks remain (relaunch storms). Default 10. */
  maxWindows?: number;
  /** Stop the clock at this time (seconds) if it comes before maxWindows (POSUM's replayed look-ahead). */
  stopAtSeconds?: number;
  /**
   * A running task that gets no CPU at all for this long is failed and relaunched elsewhere (Hadoop's
   * mapreduce.task.timeout, 600 s by default). Without it a task on a node whose regular customers take the
   * whole CPU waits forever: Salamander's controller only throttles CPU, it never kills for it.
   */
  stallTimeoutSeconds?: number;
  /**
   * Hadoop's mapreduce.job.reduce.slowstart.completedmaps: a stage after others may launch once this share
   * of every predecessor stage's tasks has ended; launched early, it fetches each predecessor task's output
   * as that task ends and computes once all of them have ended and their output has arrived (the shuffle
   * overlaps the maps; the container is held meanwhile). 1 (the default) keeps the strict barrier.
   */
  reduceSlowstart?: number;
  /**
   * What the tasks really take when it differs from the instance (a plan built on predicted durations
   * replayed against the truth). `trueSeconds`: per job and stage, seconds per task on a node of speed 1
   * (replacing work or durationSeconds); `runtimeSigma`: each task's runtime is further multiplied by a
   * lognormal factor of mean 1 and this log-scale spread, drawn per task from the seed.
   */
  runtimeTruth?: RuntimeTruth;
  /** Leases and releases the instance's `lease` nodes while the workload runs (POSUM's provisioning). */
  provisioner?: Provisioner;
}

/** A provisioning policy: every `periodSeconds` it may lease and release the leasable nodes (sim.leaseNode, sim.releaseNode). */
export interface Provisioner {
  readonly name: string;
  readonly periodSeconds: number;
  decide(sim: Simulator): void;
}

export interface RuntimeTruth {
  trueSeconds?: Record<string, Record<string, number>>;
  runtimeSigma?: number;
}

/** Salamander III-D: the QoS controller checks "periodically (e.g., every 100 ms)". */
export const QOS_PERIOD_SECONDS = 0.1;
/** The QoS period when none is asked for: 100 ms, never longer than the slot (an instance may have shorter slots). */
export const defaultQosPeriod = (slotSeconds: number): number => Math.min(QOS_PERIOD_SECONDS, slotSeconds);
/**
 * The shortest QoS period accepted, 1 ms: the next check is the next multiple of the period (qos-clock.ts
 * nextPoll), and with periods far below that, time / period passes 2^53 and the multiple rounds back to the
 * same instant, so the controller would reschedule itself at one time forever.
 */
export const MIN_QOS_PERIOD_SECONDS = 0.001;

/** Hadoop's default mapreduce.task.timeout: 10 minutes without progress. */
export const STALL_TIMEOUT_SECONDS = 600;

/** Event kinds, and their priority at the same instant: ends first, then the period tick, then starts. */
const FINISH = 0;
const FETCHED = 1;
const TICK = 2;
const RELEASE = 3;
const TIMER = 4;
const STALL = 5;
const SAMPLE = 6;
const NODE_UP = 7;
const PROVISION = 8;
/** A QoS check of one node within a slot (qosPeriodSeconds below the slot length). */
const CONTROL = 9;
/** Same-time order: ends and fetches, then ticks, controls and stalls, then releases and timers, last the sample (after every launch of that instant). */
const PRIORITY = [0, 0, 1, 2, 2, 1, 3, 1, 2, 1];

/**
 * Discrete-event simulation of MapReduce tasks on ephemeral capacity (DESIGN.md; Salamander IV,
 * Cuckoo IV). Time is continuous (seconds); the regular customers' actual load is sampled once per slot.
 * The capacity the drivers see and the CPU throttling use each slot's sample for the whole slot; the QoS
 * controller checks every node at slot boundaries, at each launch and, with a period below the slot
 * (qosPeriodSeconds, 100 ms by default), whenever the load interpolated within the slot crosses its
 * threshold (qos-clock.ts). A task runs at its node's speed scaled by the node's CPU throttling factor; a
 * task launched on a node without its chunk fetches it first, and a reduce fetches its share of every map's
 * output, over the sender's and the receiver's links (transfer.ts); a killed task returns to its driver to
 * be relaunched.
 */
export class Simulator {
  readonly rng: Random;
  now = 0;
  slot = 0;
  /** Set by the driver in prepare(): jobs it runs (1) or rejects (0). */
  readonly accepted: Uint8Array;
  /** Set by the driver in prepare(): chunk replica nodes per task, null when the task reads no chunk. */
  readonly replicas: (number[] | null)[];
  /** Set by the driver in prepare(): concurrent task slots per node. */
  readonly slots: Int32Array;
  /**
   * Per node: whether it can run tasks now. A `lease` node is down until leased and up its start-up delay
   * later (online policies; a plan's nodes are all up). `leasedAt`: when its current lease began (-1: none).
   */
  readonly up: Uint8Array;
  readonly leasedAt: Float64Array;
  /**
   * Per node: a provisioner asked to release it while it still ran tasks (drainNode). Like YARN's graceful
   * decommissioning, it takes no new task once its minimum lease is over (until then it is paid for anyway)
   * and is released when its last task leaves. Without it a busy node could never be released: the
   * dispatcher kept it busy with the next task, and a policy that wanted it gone paid for it to the end.
   */
  readonly draining: Uint8Array;
  /** Per node: seconds of lease ended so far (the current lease counts in uptime() too). */
  private readonly leasedSeconds: Float64Array;
  private readonly leaseSeq: Int32Array;

  readonly state: Uint8Array;
  readonly node: Int32Array;
  /** Order in which tasks were launched (larger = later): the QoS controllers' kill order. */
  readonly launchSeq: Float64Array;
  readonly nodes: NodeState[];

  /** Per task, for tests and reports: when its last attempt was launched and when it ended (-1: not yet). */
  readonly startedAt: Float64Array;
  readonly endTime: Float64Array;
  /** Per task: when its last attempt had its inputs and began computing (a reduce's shuffle end; -1: not yet). */
  readonly computeStartedAt: Float64Array;
  /** Per task: times the QoS controller killed it; whether its last attempt ran remotely. */
  readonly kills: Int32Array;
  readonly remote: Uint8Array;
  private readonly rem: Float64Array; // seconds of work left at full speed
  private readonly since: Float64Array; // when rem was last brought up to date
  private readonly version: Int32Array; // invalidates a killed attempt's pending events
  private readonly stageLeft: Int32Array;
  private readonly stagePredsLeft: Int32Array;
  /** Tasks of each stage that have ended (for the slow-start threshold and the policies' predictions). */
  readonly stageDone: Int32Array;
  /** Per stage: the runtimes (launch to end) of its ended tasks, as the runtime predictors' evidence. */
  readonly stageRuns: { n: number; sum: number; sumSq: number }[];
  /** Per stage: it has been made ready (early or at its barrier). */
  private readonly stageReady: Uint8Array;
  /** Per task launched before its predecessors all ended: when the output fetched so far will have arrived; -1 otherwise. */
  private readonly earlyFetchEnd: Float64Array;
  private readonly slowstart: number;
  private readonly stageWork: Float64Array; // GFLOP per task, or -durationSeconds
  /** Per task: its true runtime over the stage's (1 unless options.runtimeTruth.runtimeSigma). */
  private readonly runtimeFactor: Float64Array;
  private readonly links: NodeLinks;
  /** Per stage x node: MB of output its ended tasks wrote there (what the stages after it shuffle). */
  private readonly writtenMB: Float64Array;
  /** Per stage: it has predecessors (a reduce): it fetches their output, or waits for it when launched early. */
  private readonly shuffles: Uint8Array;
  private readonly margin: Float64Array;
  private readonly cpu: number;
  private readonly queue = new EventQueue(4096);
  /** What the QoS controller sees of node qosNode (Simulator.qosViewOf); rebuilt by fork(), whose getters read the fork. */
  private qosView: QosNodeView;
  private qosNode = 0;
  /** Seconds between the QoS controller's checks, and whether that is below a slot (checks within slots). */
  private readonly qosPeriod: number;
  private readonly withinSlot: boolean;
  /** Per node: when its pending within-slot check is due (Infinity: none) and its sequence (stale events are dropped). */
  private readonly controlAt: Float64Array;
  private readonly controlSeq: Int32Array;
  private launches = 0;
  private events = 0;
  private startedMs = 0;
  private readonly event: SimEvent = { time: 0, kind: 0, a: 0, b: 0 };
  private remaining = 0;
  private placementBytes = 0;
  private remoteBytes = 0;
  private interference = 0;
  /** Kills by the stall timeout (a subset of the relaunches). */
  private stalls = 0;
  private readonly staging: Float64Array;
  private readonly sampler: BatchSampler;
  /**
   * Bumped whenever a node may have room it did not have (a task ended or was killed, a new period):
   * drivers skip their dispatch scan when it has not moved and nothing else happened.
   */
  capacityEpoch = 0;

  constructor(
    readonly model: Model,
    readonly usage: ActualUsage,
    readonly driver: Driver,
    readonly options: SimOptions,
  ) {
    const { nTasks, K, M } = model;
    this.rng = new Random(options.seed ?? 1);
    this.accepted = new Uint8Array(model.jobs.length).fill(1);
    this.replicas = new Array(nTasks).fill(null);
    this.slots = Int32Array.from(model.maxTasks);
    this.up = Uint8Array.from(model.doc.nodes, (n) => (n.lease && driver.mode === 'policy' ? 0 : 1));
    this.leasedAt = new Float64Array(model.K).fill(-1);
    this.draining = new Uint8Array(model.K);
    this.leasedSeconds = new Float64Array(model.K);
    this.leaseSeq = new Int32Array(model.K);
    this.state = new Uint8Array(nTasks);
    this.node = new Int32Array(nTasks).fill(-1);
    this.launchSeq = new Float64Array(nTasks);
    this.rem = new Float64Array(nTasks);
    this.since = new Float64Array(nTasks);
    this.version = new Int32Array(nTasks);
    this.remote = new Uint8Array(nTasks);
    this.endTime = new Float64Array(nTasks).fill(-1);
    this.startedAt = new Float64Array(nTasks).fill(-1);
    this.computeStartedAt = new Float64Array(nTasks).fill(-1);
    this.kills = new Int32Array(nTasks);
    this.nodes = Array.from({ length: K }, () => new NodeState(M));
    this.links = new NodeLinks(model.doc.nodes.map((n) => n.bandwidthMbps));
    this.writtenMB = new Float64Array(model.stages.length * K);
    this.shuffles = Uint8Array.from(model.stages, (s) => (s.preds.length > 0 ? 1 : 0));
    this.margin = Float64Array.from(model.metrics, (m) => model.doc.safetyMargin?.[m] ?? 0);
    this.cpu = model.metrics.findIndex((m) => options.qos.compressible(m));
    this.stageLeft = Int32Array.from(model.stages, (s) => s.tasks);
    this.stagePredsLeft = Int32Array.from(model.stages, (s) => s.preds.length);
    this.stageDone = new Int32Array(model.stages.length);
    this.stageRuns = model.stages.map(() => ({ n: 0, sum: 0, sumSq: 0 }));
    this.stageReady = new Uint8Array(model.stages.length);
    this.earlyFetchEnd = new Float64Array(nTasks).fill(-1);
    this.slowstart = options.reduceSlowstart ?? 1;
    if (!(this.slowstart > 0 && this.slowstart <= 1)) throw new Error('reduceSlowstart must be in (0, 1]');
    const truth = options.runtimeTruth ?? {};
    this.stageWork = Float64Array.from(model.stages, (s) => {
      const given = truth.trueSeconds?.[model.jobs[s.job].id]?.[s.id];
      if (given !== undefined) return s.work !== null ? given : -given; // seconds at speed 1 = GFLOP at 1 GFLOP/s
      return s.work ?? -s.durationSeconds!;
    });
    this.runtimeFactor = new Float64Array(nTasks).fill(1);
    const sigma = truth.runtimeSigma ?? 0;
    if (!(sigma >= 0)) throw new Error('runtimeSigma must be >= 0');
    if (sigma > 0) {
      // Its own stream: the same tasks get the same factors whatever the driver draws from sim.rng.
      const draw = new Random(((options.seed ?? 1) ^ 0x5eed5eed) >>> 0);
      for (let i = 0; i < nTasks; i++) this.runtimeFactor[i] = Math.exp(sigma * draw.gaussian() - (sigma * sigma) / 2);
    }
    // A period asked for must fit in the slot.
    this.qosPeriod = options.qosPeriodSeconds ?? defaultQosPeriod(model.slotSeconds);
    if (!(this.qosPeriod >= MIN_QOS_PERIOD_SECONDS && this.qosPeriod <= model.slotSeconds))
      throw new Error(`qosPeriodSeconds must be in [${MIN_QOS_PERIOD_SECONDS}, ${model.slotSeconds}] (the slot length), got ${this.qosPeriod}`);
    this.withinSlot = this.qosPeriod < model.slotSeconds;
    this.controlAt = new Float64Array(K).fill(Infinity);
    this.controlSeq = new Int32Array(K);
    this.staging = new Float64Array(model.jobs.length);
    this.sampler = new BatchSampler(model);
    this.qosView = Simulator.qosViewOf(this);
  }

  /** Runs the whole simulation and returns its metrics. */
  run(): SimReport {
    this.begin();
    return this.runToEnd();
  }

  /** Sets the run up: the driver prepares, the jobs' releases and the first tick, provisioning and sample are queued. */
  begin(): void {
    this.startedMs = Date.now();
    const { model } = this;
    this.driver.prepare(this);
    this.stage();
    model.jobs.forEach((job, j) => {
      if (!this.accepted[j]) {
        for (let i = job.firstTask; i < job.firstTask + job.taskCount; i++) this.state[i] = TaskState.Skipped;
        return;
      }
      this.remaining += job.taskCount;
      this.queue.push(job.release * model.slotSeconds, PRIORITY[RELEASE], RELEASE, j);
    });
    this.queue.push(0, PRIORITY[TICK], TICK, 0);
    if (this.options.provisioner) this.queue.push(0, PRIORITY[PROVISION], PROVISION, 0);
    this.queue.push(0, PRIORITY[SAMPLE], SAMPLE, 0);
  }

  /**
   * Processes the events that come before time `before` (all of them by default), within the horizon; an event
   * at `before` stays queued, so that a fork taken then goes on exactly as this run would.
   */
  advance(before = Infinity): void {
    const horizon = Math.min(this.model.T * this.model.slotSeconds * (this.options.maxWindows ?? 10), this.options.stopAtSeconds ?? Infinity);
    const ev = this.event;
    while (this.remaining > 0 && this.queue.peekTime() < before && this.queue.pop(ev)) {
      if (ev.time > horizon) break;
      this.now = ev.time;
      this.events++;
      switch (ev.kind) {
        case FINISH:
          if (ev.b === this.version[ev.a] && this.state[ev.a] === TaskState.Running) this.finish(ev.a);
          break;
        case FETCHED:
          if (ev.b === this.version[ev.a] && this.state[ev.a] === TaskState.Transfer) this.startRunning(ev.a);
          break;
        case TICK:
          this.tick(ev.a);
          break;
        case RELEASE:
          this.release(ev.a);
          break;
        case TIMER:
          this.driver.onTimer?.(this, ev.a);
          break;
        case SAMPLE:
          this.sampler.sample(this.now, (k) => this.nodes[k].used);
          if (this.remaining > 0) this.queue.push(this.now + SAMPLE_SECONDS, PRIORITY[SAMPLE], SAMPLE, 0);
          break;
        case NODE_UP:
          // Only the current lease's start-up: a node released and leased again waits for its new one.
          if (this.leasedAt[ev.a] >= 0 && ev.b === this.leaseSeq[ev.a]) (this.up[ev.a] = 1), this.capacityEpoch++;
          break;
        case PROVISION:
          this.options.provisioner!.decide(this);
          if (this.remaining > 0) this.queue.push(this.now + this.options.provisioner!.periodSeconds, PRIORITY[PROVISION], PROVISION, 0);
          break;
        case STALL:
          // Still the same attempt at factor 0 (any change of the node's factor bumps the version).
          if (ev.b === this.version[ev.a] && this.state[ev.a] === TaskState.Running) (this.stalls++, this.kill(ev.a));
          break;
        case CONTROL:
          if (ev.b === this.controlSeq[ev.a]) (this.controlAt[ev.a] = Infinity), this.control(ev.a);
          break;
      }
      this.driver.dispatch(this);
    }
  }

  /** Runs to the end (the work done, or the horizon) and returns the metrics. */
  runToEnd(): SimReport {
    this.advance();
    return this.report(this.events, Date.now() - this.startedMs);
  }

  /**
   * An independent copy of this run as it stands, driver and provisioner included (fork.ts): what it does next
   * is what this run would do, and neither disturbs the other. The model, the regular load and the QoS
   * controller are shared (nothing changes them). The copy's `driver` (and provisioner, when it is the driver) is
   * the driver's copy, which the caller may steer.
   */
  fork(): Simulator {
    const copy = cloneState(this, new Set<unknown>([this.model, this.usage, this.options.qos, this.options.runtimeTruth]));
    copy.qosView = Simulator.qosViewOf(copy);
    return copy;
  }

  // ---- what drivers use -------------------------------------------------------------------------

  /** Calls driver.onTimer(sim, payload) at `time`. */
  timer(time: number, payload: number): void {
    this.queue.push(time, PRIORITY[TIMER], TIMER, payload);
  }

  freeSlots(k: number): number {
    return this.accepting(k) ? this.slots[k] - this.nodes[k].tasks.length : 0;
  }

  /**
   * What free() and headroom() answer for: node k accepts tasks and its QoS controller has not killed on it
   * this slot. Without the second, a controller checking within the slot (it sees the load interpolated,
   * the schedulers the slot's sample) could kill a launch at once and a scheduler relaunch it on the same
   * node at the same instant, forever (bench:posum's uniform-3 under edls-sh/minus-x did). The plan driver
   * and relaunches already skip such nodes; Hadoop's dispatcher, blind to the controller, only asks
   * freeSlots() and waits for its next heartbeat.
   */
  private offersRoom(k: number): boolean {
    return this.accepting(k) && !this.nodes[k].closed;
  }

  /** Node k is up and may take new tasks: not draining past its minimum lease. */
  accepting(k: number): boolean {
    if (!this.up[k]) return false;
    if (!this.draining[k]) return true;
    return this.now < this.leasedAt[k] + this.model.doc.nodes[k].lease!.minLeaseSeconds - 1e-9;
  }

  /** Whether node k is an ephemeral node a provisioner may lease and release. */
  leasable(k: number): boolean {
    return this.model.doc.nodes[k].lease !== undefined;
  }

  /** Leases node k now: it comes up after its start-up delay. False when not leasable or already leased. */
  leaseNode(k: number): boolean {
    const spec = this.model.doc.nodes[k].lease;
    if (!spec || this.leasedAt[k] >= 0) return false;
    this.leasedAt[k] = this.now;
    this.leaseSeq[k]++;
    this.queue.push(this.now + spec.startupSeconds, PRIORITY[NODE_UP], NODE_UP, k, this.leaseSeq[k]);
    return true;
  }

  /** Whether leased node k may be released now: idle and past its minimum lease. */
  releasable(k: number): boolean {
    const spec = this.model.doc.nodes[k].lease;
    return !!spec && this.leasedAt[k] >= 0 && this.nodes[k].tasks.length === 0 && this.now >= this.leasedAt[k] + spec.minLeaseSeconds - 1e-9;
  }

  /** Releases leased node k (false when it is not releasable now). */
  releaseNode(k: number): boolean {
    if (!this.releasable(k)) return false;
    this.leasedSeconds[k] += this.now - this.leasedAt[k];
    this.leasedAt[k] = -1;
    this.up[k] = 0;
    this.draining[k] = 0;
    return true;
  }

  /**
   * Releases leased node k now if it can be, else drains it (`draining`): it is released as soon as it is
   * idle past its minimum lease. False when k is not leased.
   */
  drainNode(k: number): boolean {
    if (this.leasedAt[k] < 0) return false;
    if (!this.releaseNode(k)) this.draining[k] = 1;
    return true;
  }

  /** Takes back a draining node (cheaper than leasing another: it is up and paid for). False when it was not draining. */
  undrainNode(k: number): boolean {
    if (!this.draining[k]) return false;
    this.draining[k] = 0;
    this.capacityEpoch++;
    return true;
  }

  /** Seconds node k has been paid for by `until`: a node without `lease` from 0; a leasable one while leased. */
  uptime(k: number, until: number): number {
    if (!this.leasable(k) || this.driver.mode === 'plan') return until;
    return this.leasedSeconds[k] + (this.leasedAt[k] >= 0 ? Math.max(0, until - this.leasedAt[k]) : 0);
  }

  /**
   * The regular customers leave node k no CPU at all in the current period under the actual load: a task
   * launched there would make no progress (its TaskTracker's container has been throttled to nothing).
   */
  starved(k: number): boolean {
    return this.cpu >= 0 && this.model.capacity[k][this.cpu] * (1 - this.usage.at(k, this.cpu, this.slot)) <= 1e-9;
  }

  /** Start of the next period, when the actual load changes and closed nodes open again. */
  nextPeriod(): number {
    return (this.slot + 1) * this.model.slotSeconds;
  }

  /** Seconds task i computes on node k at full speed. */
  runSeconds(i: number, k: number): number {
    return this.baseSeconds(i, k);
  }

  /** Seconds from now until task i's inputs (its chunk, a reduce's share of the map output) would be on node k if launched there now (queued behind the transfers already on the links). */
  fetchSeconds(i: number, k: number): number {
    this.links.begin();
    const end = this.fetchInputs(i, k);
    this.links.undo();
    return end - this.now;
  }

  /**
   * Queues the transfers that bring task i's inputs to node k, launched there now, and returns when the
   * last arrives (now when nothing moves): its chunk when no replica is on k (from a replica in k's rack
   * when one is, else any; among those the one whose uplink frees first, as a reader takes the replica that
   * answers), and, for a stage after others whose tasks write output (`outputMB`), its share (1/tasks) of
   * every output written so far, fetched from each node that holds some (nothing from k itself). Each
   * transfer queues on its sender's uplink and on k's downlink (transfer.ts).
   */
  private fetchInputs(i: number, k: number): number {
    const { model } = this;
    const g = model.taskStage[i];
    const s = model.stages[g];
    let end = this.now;
    if (!this.isLocal(i, k)) {
      const from = this.source(this.replicas[i]!, k);
      end = this.links.reserve(this.now, from, k, this.pathSeconds(s.inputMB, from, k));
    }
    if (s.preds.length === 0) return end;
    // Per source node, one transfer of everything this task reads from it. With independent link queues
    // (transfer.ts) the order does not change when the last one arrives: node order.
    const K = model.K;
    for (let q = 0; q < K; q++) {
      if (q === k) continue;
      let mb = 0;
      for (const p of s.preds) mb += this.writtenMB[p * K + q];
      if (mb > 0) end = Math.max(end, this.links.reserve(this.now, q, k, this.pathSeconds(mb / s.tasks, q, k)));
    }
    return end;
  }

  /** The replica task i reads on node k: in k's rack when one is (faster with a network), the one whose uplink frees first. */
  private source(replicas: number[], k: number): number {
    const rack = this.model.racks[k];
    let best = -1;
    let bestNear = false;
    for (const r of replicas) {
      const near = rack !== '' && this.model.racks[r] === rack;
      if (best < 0 || (near && !bestNear) || (near === bestNear && this.links.uplinkFreeAt(r) < this.links.uplinkFreeAt(best))) (best = r), (bestNear = near);
    }
    return best;
  }

  /**
   * Seconds to move `mb` from node `from` to node `to` once both links are free: at the slowest of the two
   * nodes' links and, with a network, the rate for their distance (intra- or inter-rack).
   */
  private pathSeconds(mb: number, from: number, to: number): number {
    return pathSeconds(this.model, this.links.bandwidthMbps, mb, from, to);
  }

  /** The node holds a replica of the task's chunk (or the task reads none). */
  isLocal(i: number, k: number): boolean {
    const r = this.replicas[i];
    return r === null || r.includes(k);
  }

  /** Per metric, what node k has left now for more tasks: C(1-U-S) under the actual load, minus its tasks' reservations. */
  freeCapacity(k: number): Float64Array {
    const out = new Float64Array(this.model.M);
    for (let m = 0; m < this.model.M; m++) out[m] = this.free(k, m);
    return out;
  }

  /** freeCapacity(k)[m] without building the array (the policies ask it for every node at every dispatch). */
  free(k: number, m: number): number {
    if (!this.offersRoom(k)) return 0;
    return Math.max(0, this.model.capacity[k][m] * Math.max(0, 1 - this.usage.at(k, m, this.slot) - this.margin[m]) - this.nodes[k].used[m]);
  }

  /**
   * Smallest share of capacity the node would have left over the regular customers' *actual* load, its
   * safety margin and its tasks if task i joined them: min over metrics of (C(1-U-S) - used - Rq) / C.
   * Negative when the task does not fit.
   */
  headroom(k: number, i: number): number {
    if (!this.offersRoom(k)) return -Infinity;
    const d = this.model.stages[this.model.taskStage[i]].demand;
    const cap = this.model.capacity[k];
    const used = this.nodes[k].used;
    let worst = Infinity;
    for (let m = 0; m < this.model.M; m++) {
      const free = cap[m] * Math.max(0, 1 - this.usage.at(k, m, this.slot) - this.margin[m]) - used[m] - d[m];
      const share = cap[m] > 0 ? free / cap[m] : free >= -1e-9 ? 0 : -Infinity;
      if (share < worst) worst = share;
    }
    return worst;
  }

  /**
   * Launches a Ready task on node k: at once when the node holds its chunk and needs no other node's output,
   * after fetching its inputs otherwise (a remote task's chunk, a reduce's shuffle; fetchInputs). The QoS controller looks at the node right away (it polls
   * every 100 ms in Salamander III-D, far below a slot), so an over-committing launch is killed at once.
   */
  launch(i: number, k: number): void {
    if (this.state[i] !== TaskState.Ready) throw new Error(`task ${i} is not ready to launch`);
    if (this.freeSlots(k) <= 0) throw new Error(`node ${this.model.nodeIds[k]} has no free task slot`);
    const s = this.model.stages[this.model.taskStage[i]];
    this.node[i] = k;
    this.launchSeq[i] = ++this.launches;
    this.startedAt[i] = this.now;
    this.nodes[k].add(i, s.demand);
    this.remote[i] = this.isLocal(i, k) ? 0 : 1;
    const g = this.model.taskStage[i];
    if (!this.remote[i] && !this.shuffles[g]) {
      this.startRunning(i);
      this.control(k);
      return;
    }
    // Inputs to fetch. The controller looks first (it judges the node's reservations, not the task's
    // state): a launch it kills at once moves nothing, else a relaunch storm would queue every killed
    // attempt's transfers on the links. Killed later, an attempt keeps the link time it took.
    this.state[i] = TaskState.Transfer;
    this.control(k);
    if (this.state[i] !== TaskState.Transfer) return;
    const fetched = this.fetchInputs(i, k);
    if (this.remote[i]) this.remoteBytes += s.inputMB * 1e6;
    // Launched early: what has been written is fetched now, the rest as its producers end (finish()).
    if (this.stagePredsLeft[g] > 0) this.earlyFetchEnd[i] = fetched;
    else if (this.remote[i] || fetched > this.now) this.queue.push(fetched, PRIORITY[FETCHED], FETCHED, i, this.version[i]);
    else this.startRunning(i);
  }

  // ---- internals ---------------------------------------------------------------------------------

  /** Chunk placement before the jobs start: every replica crosses the network once (bytes and time). */
  private stage(): void {
    const { model } = this;
    const mb = new Float64Array(model.K);
    const bw = model.doc.nodes.map((n) => n.bandwidthMbps);
    model.jobs.forEach((job, j) => {
      if (!this.accepted[j]) return;
      mb.fill(0);
      for (let i = job.firstTask; i < job.firstTask + job.taskCount; i++) {
        const r = this.replicas[i];
        if (r === null || model.stages[model.taskStage[i]].blocks) continue; // given blocks are already there
        const size = model.stages[model.taskStage[i]].inputMB;
        for (const k of r) mb[k] += size;
      }
      for (let k = 0; k < model.K; k++) this.placementBytes += mb[k] * 1e6;
      this.staging[j] = stagingSeconds(mb, bw);
    });
  }

  private release(j: number): void {
    for (const g of this.model.jobs[j].stages) if (this.stagePredsLeft[g] === 0) this.readyStage(g);
  }

  private readyStage(g: number): void {
    if (this.stageReady[g]) return;
    this.stageReady[g] = 1;
    const s = this.model.stages[g];
    for (let i = s.firstTask; i < s.firstTask + s.tasks; i++) {
      this.state[i] = TaskState.Ready;
      this.driver.onReady(this, i);
    }
  }

  /** Slow start: every predecessor stage of g has ended at least `reduceSlowstart` of its tasks. */
  private mayStartEarly(g: number): boolean {
    for (const q of this.model.stages[g].preds) {
      const tasks = this.model.stages[q].tasks;
      if (this.stageDone[q] < Math.max(1, Math.ceil(this.slowstart * tasks - 1e-9))) return false;
    }
    return true;
  }

  /** Producer p ended on node kp: every task of its successor stages launched early fetches its share of p's output. */
  private shuffleOut(p: number, kp: number): void {
    const { model } = this;
    const pred = model.stages[model.taskStage[p]];
    if (!(pred.outputMB > 0)) return;
    for (const g of pred.succs) {
      const s = model.stages[g];
      for (let i = s.firstTask; i < s.firstTask + s.tasks; i++) {
        if (this.earlyFetchEnd[i] < 0 || this.state[i] !== TaskState.Transfer || this.node[i] === kp) continue;
        const k = this.node[i];
        this.earlyFetchEnd[i] = Math.max(this.earlyFetchEnd[i], this.links.reserve(this.now, kp, k, this.pathSeconds(pred.outputMB / s.tasks, kp, k)));
      }
    }
  }

  /** Stage g's predecessors have all ended: its tasks launched early compute once their last fetch arrives. */
  private endEarlyWait(g: number): void {
    const s = this.model.stages[g];
    for (let i = s.firstTask; i < s.firstTask + s.tasks; i++) {
      if (this.earlyFetchEnd[i] < 0) continue;
      if (this.state[i] === TaskState.Transfer) this.queue.push(Math.max(this.now, this.earlyFetchEnd[i]), PRIORITY[FETCHED], FETCHED, i, this.version[i]);
      this.earlyFetchEnd[i] = -1;
    }
  }

  private baseSeconds(i: number, k: number): number {
    const w = this.stageWork[this.model.taskStage[i]];
    return (w >= 0 ? w / this.model.speed[k] : -w) * this.runtimeFactor[i];
  }

  private startRunning(i: number): void {
    const k = this.node[i];
    const node = this.nodes[k];
    this.state[i] = TaskState.Running;
    this.computeStartedAt[i] = this.now;
    this.rem[i] = this.baseSeconds(i, k);
    this.since[i] = this.now;
    if (this.cpu >= 0) node.runningCpu += this.model.stages[this.model.taskStage[i]].demand[this.cpu];
    if (!this.retime(k)) this.scheduleFinish(i, node.factor);
  }

  private finish(i: number): void {
    const { model } = this;
    const k = this.node[i];
    const g = model.taskStage[i];
    const s = model.stages[g];
    this.leave(i, k);
    this.state[i] = TaskState.Done;
    this.endTime[i] = this.now;
    this.remaining--;
    this.capacityEpoch++;
    this.retime(k);
    this.stageDone[g]++;
    if (s.outputMB > 0) this.writtenMB[g * model.K + k] += s.outputMB;
    const run = this.stageRuns[g];
    const seconds = this.now - this.startedAt[i];
    run.n++;
    run.sum += seconds;
    run.sumSq += seconds * seconds;
    if (this.slowstart < 1) this.shuffleOut(i, k);
    // Stage precedence (the map -> reduce barrier, Salamander Eq. 5): successors start once all of it ended,
    // or, with slow start, launch early and only compute then.
    if (--this.stageLeft[g] === 0)
      for (const succ of s.succs)
        if (--this.stagePredsLeft[succ] === 0) {
          this.endEarlyWait(succ);
          this.readyStage(succ);
        }
    if (this.slowstart < 1) for (const succ of s.succs) if (!this.stageReady[succ] && this.mayStartEarly(succ)) this.readyStage(succ);
  }

  /** Takes task i off node k (finish or kill). */
  private leave(i: number, k: number): void {
    const s = this.model.stages[this.model.taskStage[i]];
    const node = this.nodes[k];
    if (this.state[i] === TaskState.Running && this.cpu >= 0) {
      node.runningCpu -= s.demand[this.cpu];
      if (node.runningCpu < 1e-12) node.runningCpu = 0;
    }
    node.remove(i, s.demand);
    if (this.draining[k]) this.releaseNode(k); // its last task gone (and its minimum lease over): released now
  }

  private kill(i: number): void {
    const k = this.node[i];
    const wasRunning = this.state[i] === TaskState.Running;
    this.leave(i, k);
    this.version[i]++;
    this.kills[i]++;
    this.earlyFetchEnd[i] = -1;
    this.state[i] = TaskState.Ready;
    this.node[i] = -1;
    this.nodes[k].closed = true;
    this.capacityEpoch++;
    if (wasRunning) this.retime(k);
    this.driver.onKilled(this, i, k);
  }

  /**
   * Brings node k's throttling factor up to date (the actual CPU left by the regular customers over what
   * its running tasks demand) and, when it changed, every running task's remaining work and finish event.
   * Returns whether it rescheduled the node's running tasks.
   */
  private retime(k: number): boolean {
    const node = this.nodes[k];
    const f =
      this.cpu < 0
        ? 1
        : throttleFactor(this.model.capacity[k][this.cpu] * Math.max(0, 1 - this.usage.at(k, this.cpu, this.slot)), node.runningCpu);
    if (f === node.factor) return false;
    const old = node.factor;
    node.factor = f;
    for (const i of node.tasks) {
      if (this.state[i] !== TaskState.Running) continue;
      this.rem[i] = Math.max(0, this.rem[i] - old * (this.now - this.since[i]));
      this.since[i] = this.now;
      this.version[i]++;
      this.scheduleFinish(i, f);
    }
    return true;
  }

  private scheduleFinish(i: number, factor: number): void {
    if (factor <= 0) {
      // Stalled: a tick that gives the node CPU again retimes it (new version); if none does in time, it fails.
      this.queue.push(this.now + (this.options.stallTimeoutSeconds ?? STALL_TIMEOUT_SECONDS), PRIORITY[STALL], STALL, i, this.version[i]);
      return;
    }
    this.queue.push(this.now + this.rem[i] / factor, PRIORITY[FINISH], FINISH, i, this.version[i]);
  }

  /** A new period: the actual load of slot t applies, throttling is adjusted, the QoS controller runs. */
  private tick(t: number): void {
    this.slot = t;
    this.capacityEpoch++;
    for (let k = 0; k < this.model.K; k++) {
      this.nodes[k].closed = false;
      this.retime(k);
      this.control(k);
    }
    if (this.remaining > 0) this.queue.push((t + 1) * this.model.slotSeconds, PRIORITY[TICK], TICK, t + 1);
  }

  /**
   * The regular customers' load of metric m on node k as the QoS controller sees it now: the slot's value
   * for the per-slot controller, the load interpolated within the slot otherwise (ActualUsage.within).
   */
  private regularNow(k: number, m: number): number {
    if (!this.withinSlot) return this.usage.at(k, m, this.slot);
    const S = this.model.slotSeconds;
    return this.usage.within(k, m, this.slot, (this.now - this.slot * S) / S);
  }

  /** Counts interference on node k, then lets the QoS controller kill what it wants. */
  private control(k: number): void {
    const node = this.nodes[k];
    if (node.tasks.length === 0) return;
    const cap = this.model.capacity[k];
    if (node.lastInterferenceSlot !== this.slot)
      for (let m = 0; m < this.model.M; m++) {
        if (m === this.cpu) continue; // CPU is throttled: the regular customers always get theirs
        if (node.used[m] > cap[m] * Math.max(0, 1 - this.regularNow(k, m)) + 1e-9) {
          node.lastInterferenceSlot = this.slot;
          this.interference++;
          break;
        }
      }
    this.qosNode = k;
    const victims = this.options.qos.check(this.qosView);
    for (const i of victims) this.kill(i);
    if (this.withinSlot) this.scheduleControl(k);
  }

  /**
   * Within-slot controller: schedules node k's next check at the first period after the interpolated load
   * of some metric crosses the controller's threshold for the node as it is (qos-clock.ts), when that is
   * before the next slot boundary (which checks every node anyway). The newest schedule replaces any
   * earlier one (sequence number). Ends and kills outside a check do not reschedule: they only raise the
   * thresholds, so the pending check comes early, finds less or nothing to do, and reschedules.
   */
  private scheduleControl(k: number): void {
    // Always right after control(k), which left every metric's load at or below the controller's threshold.
    if (this.nodes[k].tasks.length === 0) return;
    const S = this.model.slotSeconds;
    const start = this.slot * S;
    this.qosNode = k;
    let first = Infinity;
    for (let m = 0; m < this.model.M; m++) {
      const a = this.usage.at(k, m, this.slot);
      const b = this.usage.at(k, m, this.slot + 1);
      // A falling load cannot cross later in the slot: the check that just ran left it below the threshold.
      if (b <= a) continue;
      const threshold = this.options.qos.threshold(this.qosView, m);
      if (threshold === Infinity) continue;
      const t = crossingTime(a, b, threshold, start, S, this.now);
      if (t < first) first = t;
    }
    if (first === Infinity) return;
    const at = nextPoll(first, this.qosPeriod);
    if (at >= start + S || at === this.controlAt[k]) return;
    this.controlAt[k] = at;
    this.queue.push(at, PRIORITY[CONTROL], CONTROL, k, ++this.controlSeq[k]);
  }

  /**
   * POSUM's P = (V_D, S_B, C) of the run (Table I, src/engine/evaluate/posum-score.ts): e_i is the time the job's
   * tasks ran (their last attempts); a job that did not end (rejected or unfinished) counts until the
   * simulation stopped; every node is up until the makespan.
   */
  private score(jobs: JobRun[], makespan: number): PosumScore {
    const { model } = this;
    const S = model.slotSeconds;
    const taskSeconds = new Float64Array(model.jobs.length);
    for (let i = 0; i < model.nTasks; i++) if (this.state[i] === TaskState.Done) taskSeconds[model.taskJob[i]] += this.endTime[i] - this.startedAt[i];
    const scored = model.jobs.map((job, j) => ({
      deadlineJob: model.doc.jobs[j].class === 'deadline',
      releaseSeconds: job.release * S,
      endSeconds: jobs[j].endSeconds,
      deadlineSeconds: jobs[j].deadlineSeconds,
      taskSeconds: taskSeconds[j],
    }));
    const end = Math.max(this.now, makespan);
    // A fixed node is paid until the makespan; a leased one for its leases (until the end if still leased).
    const nodes = model.doc.nodes.map((n, k) => ({ uptimeSeconds: this.uptime(k, this.leasable(k) ? end : makespan), costPerHour: n.costPerHour ?? 0 }));
    return roundScore(posumScore(scored, nodes, Math.max(this.now, makespan)));
  }

  private report(events: number, elapsedMs: number): SimReport {
    const { model } = this;
    const S = model.slotSeconds;
    const jobs: JobRun[] = [];
    const exec: number[] = [];
    let makespan = 0;
    let tasks = 0;
    let relaunches = 0;
    let remoteTasks = 0;
    let misses = 0;
    let revenue = 0;
    let unfinished = 0;
    model.jobs.forEach((job, j) => {
      const accepted = this.accepted[j] === 1;
      let end = 0;
      let done = true;
      let kills = 0;
      let remote = 0;
      if (accepted)
        for (let i = job.firstTask; i < job.firstTask + job.taskCount; i++) {
          tasks++;
          kills += this.kills[i];
          if (this.state[i] !== TaskState.Done) done = false;
          else {
            end = Math.max(end, this.endTime[i]);
            if (this.remote[i]) remote++;
          }
        }
      relaunches += kills;
      remoteTasks += remote;
      makespan = Math.max(makespan, end);
      const endSeconds = accepted && done ? end : null;
      if (accepted && !done) unfinished++;
      const deadlineSeconds = job.deadline >= 0 ? job.deadline * S : null;
      const outcome = jobRevenue(accepted, endSeconds, deadlineSeconds, job.revenueOnTime, job.revenueLate);
      if (accepted && deadlineSeconds !== null && outcome.onTime === false) misses++;
      revenue += outcome.revenue;
      const executionSeconds = endSeconds === null ? null : this.staging[j] + endSeconds - job.release * S;
      if (executionSeconds !== null) exec.push(executionSeconds);
      const computeSeconds = endSeconds === null ? null : endSeconds - job.release * S;
      jobs.push({ id: job.id, accepted, stagingSeconds: this.staging[j], endSeconds, executionSeconds, computeSeconds, deadlineSeconds, onTime: outcome.onTime, revenue: outcome.revenue, kills, remoteTasks: remote });
    });
    const batch = this.sampler.finish(this.node, (i) => this.state[i] === TaskState.Done, (j) => jobs[j].computeSeconds);
    const score = this.score(jobs, makespan);
    return {
      ...batch,
      mode: this.driver.mode,
      driver: this.driver.name,
      qos: this.options.qos.name,
      seed: this.options.seed ?? 1,
      reduceSlowstart: this.slowstart,
      qosPeriodSeconds: this.qosPeriod,
      makespanSeconds: makespan,
      jobExecutionSeconds: summarise(exec),
      score,
      relaunchedTaskPct: pct(relaunches, tasks),
      remoteTaskPct: pct(remoteTasks, tasks),
      bytesMoved: this.placementBytes + this.remoteBytes,
      placementBytes: this.placementBytes,
      remoteBytes: this.remoteBytes,
      deadlineMisses: misses,
      revenue,
      interferenceSlots: this.interference,
      tasks,
      relaunches,
      stalledTasks: this.stalls,
      remoteTasks,
      rejectedJobs: model.jobs.length - this.accepted.reduce((a, b) => a + b, 0),
      unfinishedJobs: unfinished,
      events,
      elapsedMs,
      jobs,
    };
  }

  /** What the QoS controller sees of node sim.qosNode, read live from `sim`. */
  private static qosViewOf(sim: Simulator): QosNodeView {
    const { model } = sim;
    const M = model.M;
    const regular = new Float64Array(M);
    return {
      metrics: model.metrics,
      get capacity() {
        return model.capacity[sim.qosNode];
      },
      get regular() {
        for (let m = 0; m < M; m++) regular[m] = sim.regularNow(sim.qosNode, m);
        return regular;
      },
      margin: sim.margin,
      get used() {
        return sim.nodes[sim.qosNode].used;
      },
      get tasks() {
        return sim.nodes[sim.qosNode].tasks;
      },
      demand: (i, m) => model.stages[model.taskStage[i]].demand[m],
      order: (i) => sim.launchSeq[i],
    };
  }
}
