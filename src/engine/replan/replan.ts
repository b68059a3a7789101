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
  chosen: 'search' | 'search-kept' | 'previous';
}

/**
 * The plan of a re-planned instance (model.frozen and/or a previous plan; docs/FORMAT.md, Frozen assignments).
 * The strategy searched the rest of the instance (`residual`, or the whole model when nothing is frozen): its
 * tasks in the order of their starts are decoded on the whole model around the frozen tasks (lists/decoder.ts
 * places those first and starts nothing before nowSlot). With a previous plan, that plan mended is the other
 * candidate: its tasks in its start order, each kept on its node at its start where it still fits, else where
 * it ends first. The better plan wins on the objective (more tasks, then the makespan; or the revenue first),
 * then on disruption: fewer moved tasks. Re-planning when nothing changed gives the previous plan back unless
 * the search found a strictly better one.
 */
export function replanSchedule(model: Model, searched: Schedule, residual: Residual | null, previous: Previous | null, objective: Objective): { schedule: Schedule; stats: ReplanStats } {
  const fz = model.frozen;
  let search = fz ? decodeAround(model, residual ? orderOf(model, searched, residual) : frozenFirst(model), skipOf(model, searched, residual), null) : searched;
  let chosen: ReplanStats['chosen'] = 'search';
  let schedule = search;
  if (previous) {
    search = keepLabels(model, search, previous);
    // Three candidates: the search's plan; its order decoded keeping each task where it was when it still fits
    // there (often as good, with far fewer moves); the previous plan mended.
    const until = Int32Array.from({ length: model.nTasks }, (_, i) => (search.node[i] >= 0 ? search.end(i) : -1));
    const sticky = decodeAround(model, startOrder(model, search), skipOfSchedule(search), { ...previous, until });
    const mended = decodeAround(model, previous.order, null, previous);
    const candidates: [Schedule, ReplanStats['chosen']][] = [[search, 'search'], [sticky, 'search-kept'], [mended, 'previous']];
    let best = rank(model, search, objective, previous);
    for (const [c, name] of candidates.slice(1)) {
      const r = rank(model, c, objective, previous);
      if (compareRanks(r, best) < 0) [best, schedule, chosen] = [r, c, name];
    }
    if (chosen === 'search') schedule = search;
  }
  const stats: ReplanStats = {
    nowSlot: fz ? fz.now : 0,
    frozenTasks: fz ? fz.tasks.length : 0,
    previous: previous !== null,
    chosen,
    ...countDisruption(model, schedule, previous),
  };
  return { schedule, stats };
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
