import { ValidationError } from '../model/errors';
import { isObject, show } from '../model/json-values';
import type { Model } from '../model/model';
import type { Issue } from '../model/types';

/**
 * A node lost for a while, as the actual-usage input gives it (docs/FORMAT.md, Node outages): from
 * `fromSeconds` (simulated seconds from the window's start) to `toSeconds` (absent or null: it never comes
 * back). While it is lost the node runs nothing: what runs there when it goes is killed (and relaunched by
 * whoever drives the run, as any kill), and nothing starts there until it is back. What it stores stays
 * readable (its chunks and the map output it wrote): the regular customers took its CPU and memory, not its
 * disks. `returnKnown` says that its return was announced with its loss (a maintenance window): a re-plan then
 * plans with the node back at `toSeconds`; otherwise a re-plan sees it lost to the end of the window until it
 * has come back.
 */
export interface Outage {
  node: string;
  fromSeconds: number;
  toSeconds?: number | null;
  returnKnown?: boolean;
}

/** An outage against the model: node index, and the seconds it is lost (to: Infinity for never back). */
export interface NodeOutage {
  k: number;
  from: number;
  to: number;
  returnKnown: boolean;
}

const FIELDS = new Set(['node', 'fromSeconds', 'toSeconds', 'returnKnown']);

/**
 * Checks a simulation's `outages` against the instance: an array of { node, fromSeconds, toSeconds?,
 * returnKnown? } with a known node, fromSeconds a finite number >= 0 and toSeconds, when given, above it.
 * Every problem at once, each by its path (`outages[2].toSeconds`), as every input of Fallow.
 */
export function validateOutages(model: Model, raw: unknown): Outage[] {
  if (!Array.isArray(raw)) throw new ValidationError('outages', [{ path: 'outages', message: 'must be an array of { node, fromSeconds, toSeconds?, returnKnown? }' }]);
  const issues: Issue[] = [];
  raw.forEach((o: unknown, n: number) => {
    const p = `outages[${n}]`;
    if (!isObject(o)) return issues.push({ path: p, message: 'must be an object { node, fromSeconds, toSeconds?, returnKnown? }' });
    const x = o as Record<string, unknown>;
    for (const key of Object.keys(x)) if (!FIELDS.has(key)) issues.push({ path: `${p}.${key}`, message: 'unknown field (expected node, fromSeconds, toSeconds or returnKnown)' });
    if (typeof x.node !== 'string' || !model.nodeIndex.has(x.node)) issues.push({ path: `${p}.node`, message: `must name a node of the instance, got ${show(x.node)}` });
    const from = x.fromSeconds;
    const fromOk = typeof from === 'number' && Number.isFinite(from) && from >= 0;
    if (!fromOk) issues.push({ path: `${p}.fromSeconds`, message: `must be a number >= 0, got ${show(from)}` });
    const to = x.toSeconds;
    if (to !== undefined && to !== null && !(typeof to === 'number' && Number.isFinite(to) && (!fromOk || to > (from as number))))
      issues.push({ path: `${p}.toSeconds`, message: `must be a number above fromSeconds (or null: never back), got ${show(to)}` });
    if (x.returnKnown !== undefined && typeof x.returnKnown !== 'boolean') issues.push({ path: `${p}.returnKnown`, message: `must be true or false, got ${show(x.returnKnown)}` });
  });
  if (issues.length > 0) throw new ValidationError('outages', issues);
  return raw as Outage[];
}

/** The outages against the model (they must have passed validateOutages). */
export function nodeOutages(model: Model, outages: readonly Outage[] | undefined): NodeOutage[] {
  return (outages ?? []).map((o) => ({ k: model.nodeIndex.get(o.node)!, from: o.fromSeconds, to: o.toSeconds ?? Infinity, returnKnown: o.returnKnown === true }));
}
