import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ephemeralInstance } from '../../harness/ephemeral-instance';
import { freezeAt } from '../../harness/freeze';
import { scaleInstance } from '../../harness/scale-instance';
import { Decoder } from '../../src/engine/lists/decoder';
import { decreasingJobOrder, rffdOnce } from '../../src/engine/lists/job-orders';
import { Justifier } from '../../src/engine/lists/justify';
import { ignoringTransfers, loadInstance, Model } from '../../src/engine/model/model';
import { InstanceDoc } from '../../src/engine/model/types';
import { Random } from '../../src/engine/random';
import { toPlanDoc } from '../../src/engine/schedule/plan-doc';
import { FitQueue } from '../../src/engine/schedule/fit-queue';
import { Profile } from '../../src/engine/schedule/profile';
import { Schedule } from '../../src/engine/schedule/schedule';
import { buildFromJobOrder, buildFromTaskOrder } from '../../src/engine/schedule/sgs';
import { randomInstance } from '../support/random-instance';

/**
 * The node choice of Decoder and Builder goes through per-stage heaps of nodes (schedule/fit-queue.ts). These
 * tests decode random lists with the algorithm as it was before, written plainly here (every node looked at
 * for every task, Profile.earliestFit from the earliest start, no memory), and require the same node and
 * start for every task: with and without a generator, with skipped jobs, jobs that fail and are removed,
 * the repair pass (fill), and frozen tasks.
 */

interface Ref {
  node: Int32Array;
  start: Int32Array;
  accepted: Uint8Array;
  /** A job with frozen tasks did not fit: the decode ended there (Decoder.frozenUnfit). */
  frozenUnfit: number;
}

/** The queued task of least position (the SGS's eligible task of highest priority), taken off the queue; -1: none. */
function takeFirst(queued: Uint8Array, pos: Int32Array): number {
  let i = -1;
  for (let x = 0; x < queued.length; x++) if (queued[x] && (i < 0 || pos[x] < pos[i])) i = x;
  if (i >= 0) queued[i] = 0;
  return i;
}

/** The earliest-finish (or earliest-start) node for a task of stage g over `nodes` in that order, first wins ties. */
function refChoose(model: Model, profile: Profile, g: number, est: number, nodes: ArrayLike<number>, byStart: boolean): [number, number] {
  const dur = model.stages[g].dur;
  let bestK = -1;
  let bestT = Infinity;
  let bestEnd = Infinity;
  for (let q = 0; q < nodes.length; q++) {
    const k = nodes[q];
    const t = profile.earliestFit(k, g, est, model.T);
    if (t < 0) continue;
    const end = t + dur[k];
    if (byStart ? t < bestT || (t === bestT && end < bestEnd) : end < bestEnd) (bestK = k), (bestT = t), (bestEnd = end);
  }
  return [bestK, bestT];
}

/** Decoder.decode (unpriced, no preferring) as it was: canonical tasks, rotation ties, failed jobs removed, fill. */
function refDecode(model: Model, order: ArrayLike<number>, skip: Uint8Array | null, rng: Random | null, fill: boolean): Ref {
  const { K, stages } = model;
  const S = stages.length;
  const profile = new Profile(model);
  const node = new Int32Array(model.nTasks).fill(-1);
  const start = new Int32Array(model.nTasks).fill(-1);
  const stageEnd = new Int32Array(S);
  const fz = model.frozen;
  const accepted = Uint8Array.from(model.jobs, (_, j) => (skip && skip[j] && !fz?.jobHas[j] ? 0 : 1));
  const ready = model.jobs.map((j) => Math.max(j.release, fz ? fz.now : 0));
  const earliest = (g: number) => stages[g].preds.reduce((e, p) => Math.max(e, stageEnd[p]), ready[stages[g].job]);
  const commit = (i: number, g: number, k: number, t: number) => {
    const end = Math.min(model.T, t + stages[g].dur[k]);
    if (end > t) profile.add(k, g, t, 1, end - t);
    node[i] = k;
    start[i] = t;
    stageEnd[g] = Math.max(stageEnd[g], end);
  };
  const place = (i: number, g: number): boolean => {
    const rot = rng && K > 1 ? rng.int(K) : 0;
    const nodes = Array.from({ length: K }, (_, q) => (q + rot) % K);
    const [k, t] = refChoose(model, profile, g, earliest(g), nodes, false);
    if (k >= 0) commit(i, g, k, t);
    return k >= 0;
  };
  const unplace = (j: number) => {
    const job = model.jobs[j];
    for (let i = job.firstTask; i < job.firstTask + job.taskCount; i++) {
      if (node[i] < 0) continue;
      const g = model.taskStage[i];
      profile.remove(node[i], g, start[i]);
      node[i] = start[i] = -1;
    }
    for (const g of job.stages) stageEnd[g] = 0;
    accepted[j] = 0;
  };
  if (fz) for (const i of fz.tasks) commit(i, model.taskStage[i], fz.node[i], fz.start[i]);
  const pos = new Int32Array(model.nTasks);
  for (let p = 0; p < order.length; p++) pos[order[p]] = p;
  const left = Int32Array.from(stages, (s, g) => (fz?.free[g] ? fz.free[g]!.length : s.tasks));
  const placed = new Int32Array(S);
  const waiting = Int32Array.from(stages, (s) => s.preds.filter((p) => left[p] > 0).length);
  const queued = new Uint8Array(model.nTasks);
  const push = (g: number) => {
    for (let i = stages[g].firstTask; i < stages[g].firstTask + stages[g].tasks; i++)
      if (!fz?.free[g] || fz.node[i] < 0) queued[i] = 1;
  };
  for (let g = 0; g < S; g++) if (waiting[g] === 0 && left[g] > 0 && accepted[stages[g].job]) push(g);
  const failed = new Uint8Array(model.jobs.length);
  for (let i = takeFirst(queued, pos); i >= 0; i = takeFirst(queued, pos)) {
    const g = model.taskStage[i];
    const j = stages[g].job;
    if (failed[j]) continue;
    const c = fz?.free[g] ? fz.free[g]![placed[g]] : stages[g].firstTask + placed[g];
    if (!place(c, g)) {
      if (fz?.jobHas[j]) return { node, start, accepted, frozenUnfit: j };
      failed[j] = 1;
      unplace(j);
      continue;
    }
    placed[g]++;
    if (--left[g] === 0) for (const h of stages[g].succs) if (--waiting[h] === 0) push(h);
  }
  if (fill) {
    const tried = new Uint8Array(model.jobs.length);
    for (let p = 0; p < order.length; p++) {
      const j = model.taskJob[order[p]];
      if (accepted[j] || tried[j]) continue;
      tried[j] = 1;
      let ok = true;
      for (const g of model.jobs[j].stages) {
        for (let i = stages[g].firstTask; ok && i < stages[g].firstTask + stages[g].tasks; i++) ok = place(i, g);
        if (!ok) break;
      }
      if (ok) accepted[j] = 1;
      else unplace(j);
    }
  }
  return { node, start, accepted, frozenUnfit: -1 };
}

/** Builder as it was: every node in its (shuffled) order per task, for one job order or one task list. */
function refBuild(model: Model, rng: Random | null, byStart: boolean, jobOrder: readonly number[] | null, taskOrder: ArrayLike<number> | null, skip?: Uint8Array): Ref {
  const { K, stages } = model;
  const profile = new Profile(model);
  const node = new Int32Array(model.nTasks).fill(-1);
  const start = new Int32Array(model.nTasks).fill(-1);
  const stageEnd = new Int32Array(stages.length);
  const accepted = new Uint8Array(model.jobs.length);
  const nodeOrder = Array.from({ length: K }, (_, k) => k);
  const placeTask = (i: number): boolean => {
    const g = model.taskStage[i];
    if (rng) rng.shuffle(nodeOrder);
    const est = stages[g].preds.reduce((e, p) => Math.max(e, stageEnd[p]), model.jobs[stages[g].job].release);
    const [k, t] = refChoose(model, profile, g, est, nodeOrder, byStart);
    if (k < 0) return false;
    profile.add(k, g, t);
    node[i] = k;
    start[i] = t;
    stageEnd[g] = Math.max(stageEnd[g], t + stages[g].dur[k]);
    return true;
  };
  const unplace = (j: number) => {
    const job = model.jobs[j];
    for (let i = job.firstTask; i < job.firstTask + job.taskCount; i++) {
      if (node[i] < 0) continue;
      profile.remove(node[i], model.taskStage[i], start[i]);
      node[i] = start[i] = -1;
    }
    for (const g of job.stages) stageEnd[g] = 0;
    accepted[j] = 0;
  };
  if (jobOrder)
    for (const j of jobOrder) {
      let ok = true;
      for (const g of model.jobs[j].stages) for (let i = stages[g].firstTask; ok && i < stages[g].firstTask + stages[g].tasks; i++) ok = placeTask(i);
      if (ok) accepted[j] = 1;
      else unplace(j);
    }
  else {
    const order = taskOrder!;
    const pos = new Int32Array(model.nTasks);
    for (let p = 0; p < order.length; p++) pos[order[p]] = p;
    for (let j = 0; j < model.jobs.length; j++) accepted[j] = skip?.[j] ? 0 : 1;
    const left = Int32Array.from(stages, (s) => s.tasks);
    const waiting = Int32Array.from(stages, (s) => s.preds.length);
    const queued = new Uint8Array(model.nTasks);
      const push = (g: number) => {
      for (let i = stages[g].firstTask; i < stages[g].firstTask + stages[g].tasks; i++) queued[i] = 1;
    };
    stages.forEach((s, g) => waiting[g] === 0 && !skip?.[s.job] && push(g));
    const failed = new Uint8Array(model.jobs.length);
    for (let i = takeFirst(queued, pos); i >= 0; i = takeFirst(queued, pos)) {
      const g = model.taskStage[i];
      const j = model.taskJob[i];
      if (failed[j]) continue;
      if (!placeTask(i)) {
        failed[j] = 1;
        unplace(j);
        continue;
      }
      if (--left[g] === 0) for (const h of stages[g].succs) if (--waiting[h] === 0) push(h);
    }
  }
  return { node, start, accepted, frozenUnfit: -1 };
}

/** Justifier.backward as it was: per task by decreasing end, the latest end on any node (loop, ties to the smaller index). */
function refBackward(model: Model, s: Schedule, makespan: number, prev: Int32Array): Int32Array | null {
  const { K, T } = model;
  const profile = new Profile(model);
  const minStart = new Int32Array(model.stages.length).fill(T);
  const posOf = new Int32Array(model.nTasks);
  prev.forEach((i, p) => (posOf[i] = p));
  const acc = [...prev].filter((i) => s.accepted[model.taskJob[i]]);
  // By decreasing end, equal ends in list order (Justifier's counting sort).
  const byEnd = [...acc].sort((a, b) => s.end(b) - s.end(a) || posOf[a] - posOf[b]);
  const start = new Int32Array(model.nTasks);
  for (const i of byEnd) {
    const g = model.taskStage[i];
    const st = model.stages[g];
    const latestEnd = st.succs.reduce((e, h) => Math.min(e, minStart[h]), makespan);
    let bestK = -1;
    let bestT = -1;
    for (let k = 0; k < K; k++)
      for (let t = latestEnd - st.dur[k]; t >= model.jobs[st.job].release && t + st.dur[k] > bestT + (bestK >= 0 ? st.dur[bestK] : 0); t--)
        if (profile.fits(k, g, t)) {
          (bestK = k), (bestT = t);
          break;
        }
    if (bestK < 0) return null;
    profile.add(bestK, g, bestT);
    start[i] = bestT;
    minStart[g] = Math.min(minStart[g], bestT);
  }
  // By right-justified start; equal starts in reverse decreasing-end order.
  const rank = new Int32Array(model.nTasks);
  byEnd.forEach((i, q) => (rank[i] = q));
  const fwd = [...acc].sort((a, b) => start[a] - start[b] || rank[b] - rank[a]);
  return Int32Array.from([...fwd, ...[...prev].filter((i) => !s.accepted[model.taskJob[i]])]);
}

function assertSame(s: Schedule, ref: Ref, what: string): void {
  assert.deepEqual([...s.accepted], [...ref.accepted], `${what}: accepted`);
  assert.deepEqual([...s.node], [...ref.node], `${what}: nodes`);
  assert.deepEqual([...s.start], [...ref.start], `${what}: starts`);
}

/** Instances of every kind, some too tight for all their jobs (short horizons), unpriced. */
function instances(): { name: string; doc: InstanceDoc }[] {
  const out: { name: string; doc: InstanceDoc }[] = [];
  for (let seed = 1; seed <= 24; seed++) out.push({ name: `random ${seed}`, doc: randomInstance(seed) });
  for (let seed = 1; seed <= 6; seed++) {
    out.push({ name: `ephemeral ${seed}`, doc: ephemeralInstance({ nodes: 4 + 2 * seed, jobs: 3 + seed, seed }) });
    out.push({ name: `ephemeral tight ${seed}`, doc: ephemeralInstance({ nodes: 3, jobs: 6, slots: 12 + 4 * seed, seed: seed + 50 }) });
  }
  for (let seed = 1; seed <= 4; seed++) {
    out.push({ name: `scale ${seed}`, doc: scaleInstance({ nodes: 30 + 10 * seed, tasks: 300, seed, dataDir: '/nonexistent' }) });
    out.push({ name: `scale tight ${seed}`, doc: scaleInstance({ nodes: 12, tasks: 400, slots: 24, seed: seed + 10, dataDir: '/nonexistent' }) });
  }
  return out;
}

const permutation = (n: number, rng: Random) => Int32Array.from(rng.shuffle(Array.from({ length: n }, (_, i) => i)));

/** Both ways of choosing: the heaps on every cluster (directMaxNodes 0), and the plain loop on every one. */
for (const [way, directMaxNodes] of [
  ['heaps', 0],
  ['plain loop', 1 << 30],
] as const)
describe(`fit queue (${way}): the node choice of Decoder and Builder is the one of a loop over every node`, () => {
  const all = instances().map(({ name, doc }) => ({ name, doc, model: ignoringTransfers(loadInstance(doc)) }));
  let keepDirect = FitQueue.directMaxNodes;
  before(() => {
    keepDirect = FitQueue.directMaxNodes;
    FitQueue.directMaxNodes = directMaxNodes;
  });
  after(() => {
    FitQueue.directMaxNodes = keepDirect;
  });

  it('Decoder: random lists, skipped jobs, failures, fill, with and without a generator', () => {
    let failures = 0;
    let compared = 0;
    for (const { name, model } of all) {
      const rng = new Random(name.length * 7919 + model.nTasks);
      const dec = new Decoder(model);
      for (let r = 0; r < 4; r++) {
        const order = permutation(model.nTasks, rng);
        const skip = r % 2 ? Uint8Array.from(model.jobs, () => (rng.next() < 0.2 ? 1 : 0)) : null;
        const fill = r >= 2;
        for (const withRng of [false, true]) {
          const seed = rng.int(1 << 30);
          const s = new Schedule(model);
          dec.decode(order, skip, withRng ? new Random(seed) : null, s, undefined, fill);
          const ref = refDecode(model, order, skip, withRng ? new Random(seed) : null, fill);
          assertSame(s, ref, `${name} list ${r}${withRng ? ' rng' : ''}${fill ? ' fill' : ''}`);
          failures += model.jobs.length - ref.accepted.reduce((a, b) => a + b, 0);
          compared++;
        }
      }
    }
    assert.ok(failures > 20, `only ${failures} rejected jobs: the failure path is hardly tested`);
    assert.ok(compared >= 300);
  });

  it('with room for few classes (dropped and found again), the same', () => {
    const keep = FitQueue.maxEntries;
    try {
      for (const { name, model } of all.filter(({ model }) => model.stages.length > 4)) {
        FitQueue.maxEntries = 2 * model.K; // two classes at a time
        const rng = new Random(model.nTasks + 3);
        const order = permutation(model.nTasks, rng);
        const s = new Schedule(model);
        new Decoder(model).decode(order, null, null, s, undefined, true);
        assertSame(s, refDecode(model, order, null, null, true), `${name} two classes`);
        const jobs = decreasingJobOrder(model, new Random(5));
        assertSame(buildFromJobOrder(model, jobs, new Random(9), 'earliestStart'), refBuild(model, new Random(9), true, jobs, null), `${name} two classes rffd`);
      }
    } finally {
      FitQueue.maxEntries = keep;
    }
  });

  it('Decoder with frozen tasks (a re-plan) decodes as the loop does', () => {
    let frozenTasks = 0;
    for (let seed = 1; seed <= 8; seed++) {
      const doc = ephemeralInstance({ nodes: 5 + seed, jobs: 4 + (seed % 3), seed: seed + 20 });
      const model = ignoringTransfers(loadInstance(doc));
      const rng = new Random(seed);
      const first = new Schedule(model);
      new Decoder(model).decode(permutation(model.nTasks, rng), null, null, first);
      const frozenDoc = freezeAt(doc, toPlanDoc(model, first, 'test'), 6 + 3 * seed);
      const fm = ignoringTransfers(loadInstance(frozenDoc));
      frozenTasks += fm.frozen!.tasks.length;
      const dec = new Decoder(fm);
      for (let r = 0; r < 4; r++) {
        const order = permutation(fm.nTasks, rng);
        const withRng = r % 2 === 1;
        const s = new Schedule(fm);
        dec.decode(order, null, withRng ? new Random(seed + r) : null, s, undefined, r >= 2);
        const ref = refDecode(fm, order, null, withRng ? new Random(seed + r) : null, r >= 2);
        assert.equal(dec.frozenUnfit, ref.frozenUnfit, `frozen ${seed} list ${r}`);
        if (ref.frozenUnfit < 0) assertSame(s, ref, `frozen ${seed} list ${r}`);
      }
    }
    assert.ok(frozenTasks > 0);
  });

  it('Justifier.backward right-justifies as the loop does', () => {
    let justified = 0;
    for (const { name, model } of all) {
      const rng = new Random(model.nTasks + 5);
      const dec = new Decoder(model);
      const just = new Justifier(model);
      for (let r = 0; r < 2; r++) {
        const s = new Schedule(model);
        const prev = new Int32Array(model.nTasks);
        dec.decode(permutation(model.nTasks, rng), null, null, s, prev, r === 1);
        const out = new Int32Array(model.nTasks);
        const ok = just.backward(s, s.makespan(), prev, out);
        const ref = refBackward(model, s, s.makespan(), prev);
        assert.equal(ok, ref !== null, `${name} list ${r}`);
        if (ref) assert.deepEqual([...out], [...ref], `${name} list ${r}`);
        if (ok) justified++;
      }
    }
    assert.ok(justified > 40);
  });

  it('buildFromTaskOrder and buildFromJobOrder (both rules, rffdOnce) choose as the loop does', () => {
    for (const { name, model } of all) {
      const rng = new Random(model.nTasks + 17);
      const order = permutation(model.nTasks, rng);
      const skip = Uint8Array.from(model.jobs, () => (rng.next() < 0.2 ? 1 : 0));
      assertSame(buildFromTaskOrder(model, order, null, skip), refBuild(model, null, false, null, order, skip), `${name} task list`);
      let seed = rng.int(1 << 30);
      assertSame(buildFromTaskOrder(model, order, new Random(seed)), refBuild(model, new Random(seed), false, null, order), `${name} task list rng`);
      const jobs = Array.from(rng.shuffle(model.jobs.map((_, j) => j)));
      for (const rule of ['earliestStart', 'earliestFinish'] as const) {
        assertSame(buildFromJobOrder(model, jobs, null, rule), refBuild(model, null, rule === 'earliestStart', jobs, null), `${name} jobs ${rule}`);
        seed = rng.int(1 << 30);
        assertSame(buildFromJobOrder(model, jobs, new Random(seed), rule), refBuild(model, new Random(seed), rule === 'earliestStart', jobs, null), `${name} jobs ${rule} rng`);
      }
      // rffdOnce: its job order from the generator, then the build with it.
      seed = rng.int(1 << 30);
      const a = rffdOnce(model, new Random(seed));
      const refRng = new Random(seed);
      const jobOrder = decreasingJobOrder(model, refRng);
      assertSame(a, refBuild(model, refRng, true, jobOrder, null), `${name} rffdOnce`);
    }
  });
});
