import { compile, Model, taskSeconds } from '../../model/model';
import type { InstanceDoc, JobSpec, NodeSpec, StageSpec } from '../../model/types';
import type { ScoredJob } from '../../evaluate/posum-score';
import type { Provisioner } from '../../simulate/driver';
import type { SimulatorView } from '../../simulate/host';
import { TaskState } from '../../simulate/driver';
import { taskEstimates } from './estimates';

/**
 * Seconds the work a look-ahead left unfinished takes to drain on the nodes up at its end, net of the
 * forecast regular load of its last slot (the largest over metrics; ten look-aheads when nothing is up).
 * This terminal estimate lets a member that leases now be credited for the jobs it will finish sooner
 * after the window, not only charged for the lease (without it the look-ahead never leases).
 */
export function drainSeconds(model: Model, sim: SimulatorView, lookAheadSeconds: number): number {
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
export interface Present {
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
export function lookAhead(model: Model, sim: SimulatorView, seconds: number, echoArrivals = false): Present | null {
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
  // The simulator does not hold other plans' reservations (the run is alone on its nodes), so neither does the present.
  const present: InstanceDoc = { ...doc, name: `${doc.name}@${Math.round(sim.now)}`, horizon: { slots, slotSeconds: S }, nodes, usage, jobs, reserved: undefined };
  return { model: compile(present), jobs: identity, leased };
}

export function withoutLease(n: NodeSpec): NodeSpec {
  const { lease: _, ...fixed } = n;
  return fixed;
}

/** A provisioner that first re-leases the nodes leased in the present (at the look-ahead's time 0), then decides as `inner`. */
export function resumingLeases(leased: readonly number[], inner: Provisioner): Provisioner {
  let resumed = false;
  return {
    name: inner.name,
    periodSeconds: inner.periodSeconds,
    decide(sim: SimulatorView): void {
      if (!resumed) for (const k of leased) sim.leaseNode(k);
      resumed = true;
      inner.decide(sim);
    },
  };
}
