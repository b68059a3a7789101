/**
 * One simulated run of the sweep with what explains its result: which hosts killed how many tasks (and
 * what the forecast promised there against what the regular customers actually left), which hosts ran
 * tasks remotely, how many bytes the shuffle and the remote reads moved and how long the reduces waited
 * for their inputs, and the staging time. Read from the simulator after the run, never estimated.
 */
import { Model } from '../../src/engine/model/model';
import { InstanceDoc, PlanDoc } from '../../src/engine/model/types';
import { getPolicy } from '../../src/engine/policies';
import { getQos } from '../../src/engine/qos';
import { checkPlanFits, portfolioParams, SimReport } from '../../src/engine/simulation';
import { PlanDriver } from '../../src/engine/simulate/plan-driver';
import { Simulator } from '../../src/engine/simulate/simulator';
import { Driver, TaskState } from '../../src/engine/simulate/driver';
import { ActualUsage } from '../../src/engine/simulate/usage';

export interface HostKills {
  host: string;
  kills: number;
  /** Mean over the window's slots until the job ended: cores and GB the regular customers leave, forecast and actual. */
  forecastFreeCores: number;
  actualFreeCores: number;
  forecastFreeRamGB: number;
  actualFreeRamGB: number;
}

export interface RunEvidence {
  /** The hosts with the most kills (at most 3), busiest first. */
  killsByHost: HostKills[];
  /** Hosts whose finished tasks read their chunk remotely (at most 3), most first. */
  remoteByHost: { host: string; tasks: number }[];
  stagingSeconds: number;
  remoteReadGB: number;
  /** Map output the reduces' last attempts fetched from other nodes. */
  shuffleGB: number;
  /** Reduces' last attempts: seconds from launch to having all their inputs (median, max). */
  shuffleMedianSeconds: number | null;
  shuffleMaxSeconds: number | null;
  /** Nodes the reduces' last attempts ran on, and how many. */
  reduceNodes: number;
}

/** Passes everything to the driver it wraps, counting the kills per node on the way. */
class KillCounter implements Driver {
  readonly kills: Int32Array;

  constructor(
    private readonly inner: Driver,
    nodes: number,
  ) {
    this.kills = new Int32Array(nodes);
  }

  get name(): string {
    return this.inner.name;
  }

  get mode(): 'plan' | 'policy' {
    return this.inner.mode;
  }

  prepare(sim: Simulator): void {
    this.inner.prepare(sim);
  }

  onReady(sim: Simulator, task: number): void {
    this.inner.onReady(sim, task);
  }

  onKilled(sim: Simulator, task: number, node: number): void {
    this.kills[node]++;
    this.inner.onKilled(sim, task, node);
  }

  onTimer(sim: Simulator, payload: number): void {
    this.inner.onTimer?.(sim, payload);
  }

  dispatch(sim: Simulator): void {
    this.inner.dispatch(sim);
  }
}

/** Replays a plan (Salamander, cuckoo-plan) or runs a policy (hadoop, cuckoo) and reads the evidence off the simulator. */
export function runWithEvidence(
  model: Model,
  what: { plan: PlanDoc } | { policy: string },
  actual: InstanceDoc['usage'],
  qos: string,
  seed: number,
): { report: SimReport; evidence: RunEvidence } {
  if ('plan' in what) checkPlanFits(model, what.plan);
  const driver = new KillCounter('plan' in what ? new PlanDriver(model, what.plan) : getPolicy(what.policy).create({ model, posum: portfolioParams() }).driver, model.K);
  const usage = new ActualUsage(model, actual);
  const sim = new Simulator(model, usage, driver, { qos: getQos(qos), seed });
  const report = sim.run();
  return { report, evidence: evidence(model, sim, driver.kills, usage, report) };
}

function evidence(model: Model, sim: Simulator, kills: Int32Array, actual: ActualUsage, report: SimReport): RunEvidence {
  const forecast = new ActualUsage(model, model.doc.usage);
  const cpu = model.metrics.indexOf('cpu');
  const ram = model.metrics.indexOf('ram');
  const lastSlot = Math.min(model.T, Math.max(1, Math.ceil(report.makespanSeconds / model.slotSeconds)));
  const meanFree = (usage: ActualUsage, k: number, m: number) => {
    if (m < 0) return NaN;
    let sum = 0;
    for (let t = 0; t < lastSlot; t++) sum += model.capacity[k][m] * Math.max(0, 1 - usage.at(k, m, t));
    return round1(sum / lastSlot);
  };
  const killsByHost = Array.from(kills, (n, k) => ({ k, n }))
    .filter((x) => x.n > 0)
    .sort((a, b) => b.n - a.n || a.k - b.k)
    .slice(0, 3)
    .map(({ k, n }) => ({
      host: model.nodeIds[k],
      kills: n,
      forecastFreeCores: meanFree(forecast, k, cpu),
      actualFreeCores: meanFree(actual, k, cpu),
      forecastFreeRamGB: meanFree(forecast, k, ram),
      actualFreeRamGB: meanFree(actual, k, ram),
    }));
  const remoteOn = new Int32Array(model.K);
  const shuffleSeconds: number[] = [];
  const reduceNodes = new Set<number>();
  let shuffleMB = 0;
  for (let i = 0; i < model.nTasks; i++) {
    if (sim.state[i] !== TaskState.Done) continue;
    const k = sim.node[i];
    if (sim.remote[i]) remoteOn[k]++;
    const s = model.stages[model.taskStage[i]];
    if (s.preds.length === 0) continue;
    reduceNodes.add(k);
    shuffleSeconds.push(sim.computeStartedAt[i] - sim.startedAt[i]);
    for (const q of s.preds) {
      const pred = model.stages[q];
      for (let p = pred.firstTask; p < pred.firstTask + pred.tasks; p++) if (sim.node[p] !== k) shuffleMB += pred.outputMB / s.tasks;
    }
  }
  shuffleSeconds.sort((a, b) => a - b);
  return {
    killsByHost,
    remoteByHost: Array.from(remoteOn, (n, k) => ({ host: model.nodeIds[k], tasks: n }))
      .filter((x) => x.tasks > 0)
      .sort((a, b) => b.tasks - a.tasks)
      .slice(0, 3),
    stagingSeconds: report.jobs[0]?.stagingSeconds ?? 0,
    remoteReadGB: round1(report.remoteBytes / 1e9),
    shuffleGB: round1(shuffleMB / 1e3),
    shuffleMedianSeconds: shuffleSeconds.length ? Math.round(shuffleSeconds[shuffleSeconds.length >> 1]) : null,
    shuffleMaxSeconds: shuffleSeconds.length ? Math.round(shuffleSeconds[shuffleSeconds.length - 1]) : null,
    reduceNodes: reduceNodes.size,
  };
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}
