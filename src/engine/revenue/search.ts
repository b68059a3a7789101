import { revenueBound } from '../bounds/revenue';
import { Model } from '../model/model';
import { Random } from '../random';
import { Schedule } from '../schedule/schedule';
import { Strategy, StrategyContext, StrategyResult } from '../contracts/strategy';
import { compareRevenue, RevenueDecoder, RevenueScore, scoreOf } from './decoder';

/** Late acceptance list length: long enough to climb out of the plateaus job orders are full of. */
const LATE_ACCEPTANCE_SIZE = 100;
/** The two-stage paper's heuristics that seed the search, when registered. */
const SEED_STRATEGIES = ['tps', 'edf', 'fifo'];

/**
 * `ls` for the revenue objective (two-stage paper Eq. 3): a late-acceptance local search over the order
 * in which whole jobs are handed to the list scheduler, decoded by RevenueDecoder (a job that would be
 * late with a penalty is rejected where it lands). It starts from the best of the paper's heuristics
 * (tps, edf, fifo: their plans are kept as incumbents, so the search never returns less than they earn)
 * and of the orders by deadline, by release and by revenue density; moves take one job to another
 * position, mostly a job that earns nothing yet towards the front or an on-time one towards the back.
 */
export function revenueSearch(ctx: StrategyContext, lookup: (name: string) => Strategy | undefined): Promise<StrategyResult> | StrategyResult {
  return run(ctx, lookup);
}

async function run(ctx: StrategyContext, lookup: (name: string) => Strategy | undefined): Promise<StrategyResult> {
  const { model, rng } = ctx;
  const started = Date.now();
  const n = model.jobs.length;
  const decoder = new RevenueDecoder(model);

  let best: Schedule | null = null;
  let bestScore: RevenueScore | null = null;
  let bestSource = '';
  const offer = (s: Schedule, score: RevenueScore, source: string): boolean => {
    if (bestScore && compareRevenue(score, bestScore) >= 0) return false;
    best = s.clone();
    bestScore = score;
    bestSource = source;
    ctx.report(0, score.tasks, score.makespan);
    return true;
  };

  // Seeds: the paper's heuristics (whole plans, and their start order as a job order) ...
  const orders: { name: string; order: Int32Array }[] = [];
  const seedRuns: Record<string, number> = {};
  for (const name of SEED_STRATEGIES) {
    const s = lookup(name);
    if (!s || ctx.budget.stopNow(0)) continue;
    const r = await s.run({ ...ctx, objective: 'revenue', rng: rng.fork(), report: () => {} });
    const score = scoreOf(model, r.schedule);
    seedRuns[name] = score.revenue;
    offer(r.schedule, score, name);
    orders.push({ name: `${name}-order`, order: startOrder(model, r.schedule) });
  }
  // ... and the classic priority orders.
  orders.push({ name: 'deadline-order', order: sortedJobs(model, (j) => deadlineKey(model, j)) });
  orders.push({ name: 'release-order', order: sortedJobs(model, (j) => model.jobs[j].release) });
  orders.push({ name: 'density-order', order: sortedJobs(model, (j) => -density(model, j)) });

  let current: Int32Array | null = null;
  let currentScore: RevenueScore | null = null;
  for (const { name, order } of orders) {
    if (ctx.budget.stopNow(0) && current) break;
    const d = decoder.decode(order);
    offer(d.schedule, d.score, name);
    if (!currentScore || compareRevenue(d.score, currentScore) < 0) {
      current = order.slice();
      currentScore = d.score;
    } else decoder.discard(0);
  }
  let cur = current!;
  let curScore = currentScore!;
  decoder.decode(cur); // checkpoints now describe the current order

  const history: RevenueScore[] = new Array(LATE_ACCEPTANCE_SIZE).fill(curScore);
  const candidate = new Int32Array(n);
  let iterations = 0;
  let accepted = 0;
  let earnsNothing: number[] = [];
  let lastSchedule: Schedule | null = null;
  // Nothing earns more than the bound: reaching it ends the search.
  const upper = ctx.revenueUpper ?? revenueBound(model).revenue;
  const reached = () => bestScore!.revenue >= upper - 1e-9 * Math.max(1, Math.abs(upper));
  while (n > 1 && !ctx.budget.stopNow(iterations) && !reached()) {
    if ((iterations & 15) === 0 || !lastSchedule) earnsNothing = idleJobs(model, cur, lastSchedule);
    iterations++;
    const [from, to] = pickMove(rng, cur, earnsNothing, n);
    if (from === to) continue;
    candidate.set(cur);
    moveJob(candidate, from, to);
    const changed = Math.min(from, to);
    const d = decoder.decode(candidate, changed);
    const slot = iterations % LATE_ACCEPTANCE_SIZE;
    if (compareRevenue(d.score, curScore) <= 0 || compareRevenue(d.score, history[slot]) <= 0) {
      cur.set(candidate);
      curScore = d.score;
      history[slot] = d.score;
      lastSchedule = d.schedule;
      accepted++;
      offer(d.schedule, d.score, 'search');
    } else decoder.discard(changed);
  }
  const elapsed = Math.max(1, Date.now() - started);
  return {
    schedule: best!,
    iterations: Math.max(1, iterations),
    stats: {
      objective: 'revenue',
      bestFrom: bestSource,
      seeds: seedRuns,
      acceptedMoves: accepted,
      movesPerSecond: Math.round((iterations / elapsed) * 1000),
      lateAcceptanceSize: LATE_ACCEPTANCE_SIZE,
    },
  };
}

/** Jobs of the order by the slot their first task starts (rejected jobs last, in instance order). */
function startOrder(model: Model, s: Schedule): Int32Array {
  const first = model.jobs.map((job, j) => {
    if (!s.accepted[j]) return Infinity;
    let t = Infinity;
    for (let i = job.firstTask; i < job.firstTask + job.taskCount; i++) t = Math.min(t, s.start[i]);
    return t;
  });
  return sortedJobs(model, (j) => first[j]);
}

function sortedJobs(model: Model, key: (j: number) => number): Int32Array {
  const keys = model.jobs.map((_, j) => key(j));
  return Int32Array.from(
    model.jobs.map((_, j) => j).sort((a, b) => keys[a] - keys[b] || a - b),
  );
}

function deadlineKey(model: Model, j: number): number {
  const d = model.jobs[j].deadline;
  return d < 0 ? model.T + 1 : d;
}

/** Revenue at stake per demand-slot of work: what the paper's Sp (Eq. 6) is worth per unit of capacity. */
function density(model: Model, j: number): number {
  const job = model.jobs[j];
  let work = 0;
  for (const g of job.stages) {
    const s = model.stages[g];
    let d = 0;
    for (let m = 0; m < model.M; m++) d += s.demand[m];
    work += s.tasks * s.minDur * Math.max(d, 1e-9);
  }
  return Math.abs(job.revenueOnTime - job.revenueLate) / work;
}

/** Positions (in `order`) of jobs that could earn more than they do: rejected, or late. */
function idleJobs(model: Model, order: Int32Array, s: Schedule | null): number[] {
  if (!s) return [];
  const out: number[] = [];
  order.forEach((j, p) => {
    const job = model.jobs[j];
    if (!s.accepted[j] || (job.hasRevenue && job.deadline >= 0 && s.jobEnd(j) > job.deadline)) out.push(p);
  });
  return out;
}

/** Half the moves pull a job that earns nothing (yet) towards the front; the rest move any job anywhere. */
function pickMove(rng: Random, order: Int32Array, idle: number[], n: number): [number, number] {
  if (idle.length > 0 && rng.next() < 0.5) {
    const from = idle[rng.int(idle.length)];
    return [from, rng.int(from + 1)];
  }
  const from = rng.int(n);
  return [from, rng.int(n)];
}

/** Removes the job at `from` and reinserts it at `to`, shifting the jobs between. */
function moveJob(order: Int32Array, from: number, to: number): void {
  const j = order[from];
  if (from < to) order.copyWithin(from, from + 1, to + 1);
  else order.copyWithin(to + 1, to, from);
  order[to] = j;
}
