import type { Objective } from '../contracts/strategy';
import { Decoder, Preferred } from '../lists/decoder';
import { encodeByStart } from '../lists/operators';
import { ValidationError } from '../model/errors';
import type { Model } from '../model/model';
import { scheduleRevenue } from '../schedule/revenue';
import { Schedule } from '../schedule/schedule';
import { countDisruption, Disruption, keepLabels, Previous } from './previous';
import type { Residual } from './residual';

/** What a re-plan reports in its plan's stats (`stats.replan`). */
export interface ReplanStats extends Disruption {
  nowSlot: number;
  frozenTasks: number;
  previous: boolean;
  /**
   * `search`: the strategy's plan (its order decoded around the frozen tasks); `search-kept`: that order decoded
   * keeping tasks where the previous plan had them when they fit there; `previous`: the previous plan mended.
   */
  chosen: 'search' | 'search-kept' | 'previous' | 'previous-undisturbed-first';
}

/** A candidate plan and its name in stats.replan.chosen. */
export type Mended = [Schedule, ReplanStats['chosen']];

/**
 * The previous plan mended around what changed, before any search (so a re-plan has a feasible plan at once):
 * its tasks in its start order, each kept where it was when it still fits, else placed where it ends first; and
 * the same with the undisturbed tasks first (those whose previous node still has room for them alone at their
 * previous start, from nowSlot on), so that the tasks a lost node or a killed task displaced fill what is left
 * instead of pushing every later task along.
 */
export function mendPrevious(model: Model, previous: Previous): Mended[] {
  const inOrder = decodeAround(model, previous.order, null, previous);
  const displaced = displacedTasks(model, previous);
  if (!displaced.some((d) => d === 1)) return [[inOrder, 'previous']];
  const order = Int32Array.from([...previous.order].sort((a, b) => displaced[a] - displaced[b])); // stable: start order within each part
  return [
    [inOrder, 'previous'],
    [decodeAround(model, order, null, previous), 'previous-undisturbed-first'],
  ];
}

/** Per task, 1 when the previous plan put it where it cannot run any more by itself (before nowSlot, or no room left there). */
function displacedTasks(model: Model, previous: Previous): Uint8Array {
  const out = new Uint8Array(model.nTasks);
  const now = model.frozen ? model.frozen.now : 0;
  const { T, M } = model;
  for (let i = 0; i < model.nTasks; i++) {
    const k = previous.node[i];
    if (k < 0 || (model.frozen && model.frozen.node[i] >= 0)) continue;
    const s = model.stages[model.taskStage[i]];
    const t0 = previous.start[i];
    let bad = t0 < now || t0 + s.dur[k] > T;
    for (let t = t0; !bad && t < t0 + s.dur[k]; t++) {
      if (model.taskLimit[k][t] < 1) bad = true;
      for (let m = 0; !bad && m < M; m++) if (s.demand[m] > model.avail[k][m * T + t] + 1e-9) bad = true;
    }
    out[i] = bad ? 1 : 0;
  }
  return out;
}

/**
 * The plan of a re-planned instance (model.frozen and/or a previous plan; docs/FORMAT.md, Frozen assignments).
 * The strategy searched the rest of the instance (`residual`, or the whole model when nothing is frozen): its
 * tasks in the order of their starts are decoded on the whole model around the frozen tasks (lists/decoder.ts
 * places those first and starts nothing before nowSlot). With a previous plan, the candidates are that plan, the
 * same order kept where the previous plan had each task, and the previous plan mended (`mended`, mendPrevious);
 * the best wins on the objective (more tasks, then the makespan; or the revenue first), then on disruption:
 * fewer moved tasks. Re-planning when nothing changed gives the previous plan back unless the search found a
 * strictly better one. `searched` null: no search ran (its budget went on mending), the mended plans compete.
 */
export function replanSchedule(model: Model, searched: Schedule | null, residual: Residual | null, previous: Previous | null, mended: Mended[], objective: Objective): { schedule: Schedule; stats: ReplanStats } {
  const fz = model.frozen;
  // No search (the budget went on mending the previous plan): the mended plans compete alone.
  if (!searched) return pick(model, mended, previous!, objective, fz);
  const search = fz ? decodeAround(model, residual ? orderOf(model, searched, residual) : frozenFirst(model), skipOf(model, searched, residual), null) : searched;
  if (!previous) return { schedule: search, stats: { nowSlot: fz ? fz.now : 0, frozenTasks: fz ? fz.tasks.length : 0, previous: false, chosen: 'search', ...countDisruption(model, search, null) } };
  // The search's plan named as the previous plan named its tasks; its order decoded keeping each task where it was
  // when it still fits there and ends no later (often as good, with far fewer moves); the previous plan mended.
  const named = keepLabels(model, search, previous);
  const until = Int32Array.from({ length: model.nTasks }, (_, i) => (named.node[i] >= 0 ? named.end(i) : -1));
  const sticky = decodeAround(model, startOrder(model, named), skipOfSchedule(named), { ...previous, until });
  return pick(model, [[named, 'search'], [sticky, 'search-kept'], ...mended], previous, objective, fz);
}

/**
 * Decodes `order` on the whole model (frozen tasks first, nothing else before nowSlot). A job with frozen tasks
 * may not be rejected: when one does not fit, it is decoded again with those jobs' tasks first; when even then
 * one does not fit, the instance admits no plan (its started jobs cannot finish in the window) and that is an
 * error about the instance.
 */
export function decodeAround(model: Model, order: Int32Array, skip: Uint8Array | null, prefer: Preferred | null): Schedule {
  const decoder = new Decoder(model);
  decoder.preferring(prefer);
  const out = new Schedule(model);
  decoder.decode(order, skip, null, out);
  if (decoder.frozenUnfit < 0) return out;
  const fz = model.frozen!;
  const first = [...order].filter((i) => fz.jobHas[model.taskJob[i]]);
  const rest = [...order].filter((i) => !fz.jobHas[model.taskJob[i]]);
  decoder.decode(Int32Array.from([...first, ...rest]), skip, null, out);
  if (decoder.frozenUnfit < 0) return out;
  const job = model.jobs[decoder.frozenUnfit].id;
  throw new ValidationError('instance', [
    { path: 'frozen', message: `job "${job}" has started (frozen tasks) but its other tasks cannot all finish within the window from nowSlot ${fz.now} on: no plan keeps it (lengthen horizon.slots)` },
  ]);
}

/** The best of `candidates` (at least one) by the objective, then fewer moved tasks; the first wins ties. */
function pick(model: Model, candidates: Mended[], previous: Previous, objective: Objective, fz: Model['frozen']): { schedule: Schedule; stats: ReplanStats } {
  let [schedule, chosen] = candidates[0];
  let best = rank(model, schedule, objective, previous);
  for (const [c, name] of candidates.slice(1)) {
    const r = rank(model, c, objective, previous);
    if (compareRanks(r, best) < 0) [best, schedule, chosen] = [r, c, name];
  }
  const stats: ReplanStats = { nowSlot: fz ? fz.now : 0, frozenTasks: fz ? fz.tasks.length : 0, previous: true, chosen, ...countDisruption(model, schedule, previous) };
  return { schedule, stats };
}

/** The residual schedule's tasks as tasks of the whole model, by start (ties: task order); then its rejected jobs' tasks. */
function orderOf(model: Model, searched: Schedule, residual: Residual): Int32Array {
  const r = residual.model;
  const byStart = new Int32Array(r.nTasks);
  encodeByStart(searched, Int32Array.from({ length: r.nTasks }, (_, i) => i), byStart, new Int32Array(r.T + 2));
  const order = new Int32Array(model.nTasks);
  const seen = new Uint8Array(model.nTasks);
  let p = 0;
  for (const i of model.frozen!.tasks) (order[p++] = i), (seen[i] = 1);
  for (const i of byStart) (order[p++] = residual.toFull[i]), (seen[residual.toFull[i]] = 1);
  for (let i = 0; i < model.nTasks; i++) if (!seen[i]) order[p++] = i;
  return order;
}

/** A schedule's accepted tasks by start (ties: task order), then the rest: the order that decodes back to it. */
function startOrder(model: Model, s: Schedule): Int32Array {
  const out = new Int32Array(model.nTasks);
  encodeByStart(s, Int32Array.from({ length: model.nTasks }, (_, i) => i), out, new Int32Array(model.T + 2));
  return out;
}

/** Nothing was left to search (every task frozen or none): the frozen tasks, then the rest in task order. */
function frozenFirst(model: Model): Int32Array {
  return Int32Array.from({ length: model.nTasks }, (_, i) => i);
}

/** The jobs the search rejected, to leave out (a job with frozen tasks never is: the decoder keeps them). */
function skipOf(model: Model, searched: Schedule, residual: Residual | null): Uint8Array | null {
  if (!residual) return null;
  const skip = new Uint8Array(model.jobs.length);
  residual.jobToFull.forEach((j, rj) => (skip[j] = searched.accepted[rj] ? 0 : 1));
  return skip;
}

/** The jobs a schedule rejected (a job with frozen tasks never is). */
function skipOfSchedule(s: Schedule): Uint8Array {
  return Uint8Array.from(s.accepted, (a) => (a ? 0 : 1));
}

/** Lexicographic key, smaller is better: the objective's levels, then the moved tasks. */
function rank(model: Model, s: Schedule, objective: Objective, previous: Previous): number[] {
  const moved = countDisruption(model, s, previous).movedTasks;
  const base = [-s.scheduledTasks(), s.makespan(), moved];
  return objective === 'revenue' ? [-Math.round(scheduleRevenue(model, s) * 1e6), ...base] : base;
}

function compareRanks(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}
