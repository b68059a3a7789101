import { ValidationError } from '../../engine/model/errors';
import { INSTANCE_FORMAT, Issue } from '../../engine/model/types';
import { isObject, validateInstance, ValidateOptions } from '../../engine/model/validate';

/** The top-level fields of fallow.instance/v1 (FORMAT.md), with the informational `reference` and `provenance`. */
export const INSTANCE_FIELDS = ['format', 'name', 'horizon', 'metrics', 'safetyMargin', 'nodes', 'usage', 'reserved', 'network', 'jobs', 'reference', 'provenance'];
export const HORIZON_FIELDS = ['slots', 'slotSeconds'];
/** The fields fallow.instance/v1 gives a node (FORMAT.md). */
export const NODE_FIELDS = ['id', 'rack', 'flavor', 'capacity', 'speed', 'maxTasks', 'bandwidthMbps', 'costPerHour', 'lease'];
/** The fields fallow.instance/v1 gives a job and a stage (FORMAT.md). */
export const JOB_FIELDS = ['id', 'customer', 'class', 'releaseSlot', 'deadlineSlot', 'revenue', 'replication', 'mapClass', 'reduceClass', 'stages'];
export const STAGE_FIELDS = ['id', 'tasks', 'after', 'demand', 'work', 'durationSeconds', 'defaultDurationSeconds', 'inputMB', 'outputMB', 'blocks'];

/**
 * Runs the engine's instance validator on a document built from parts of a request and keeps the issues on
 * the paths the request is responsible for (`keep`). The rest of the document is a harmless wrapper.
 */
export function engineIssues(doc: Record<string, unknown>, keep: RegExp, options: ValidateOptions = {}): Issue[] {
  try {
    validateInstance({ format: INSTANCE_FORMAT, ...doc }, options);
    return [];
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    return e.issues.filter((i) => keep.test(i.path));
  }
}

/** `path.field: unknown field` for every field of `value` outside `known`: a typo must not be stored silently. */
export function unknownFields(value: unknown, path: string, known: readonly string[]): Issue[] {
  if (!isObject(value)) return [];
  return Object.keys(value as object)
    .filter((k) => !known.includes(k))
    .map((k) => ({ path: `${path}.${k}`, message: `unknown field (expected one of ${known.join(', ')})` }));
}

/**
 * Everything wrong with a cluster's metrics and nodes, each issue with the path the client sent
 * (`nodes[2].capacity.cpu`): the engine's checks (duplicate ids, unknown metrics, negative capacities,
 * non-positive speeds, ...) plus unknown node fields.
 */
export function clusterIssues(metrics: unknown, nodes: unknown, network?: unknown): Issue[] {
  const issues = engineIssues({ name: 'cluster', horizon: { slots: 1, slotSeconds: 1 }, metrics, nodes, network, jobs: [] }, /^(nodes|metrics|network)(\[|\.|$)/);
  if (Array.isArray(nodes)) nodes.forEach((n, i) => issues.push(...unknownFields(n, `nodes[${i}]`, NODE_FIELDS)));
  return byElement(issues);
}

/**
 * Groups issues by the array element they are about (`nodes[3]...` together, in element order), keeping
 * the order of the fields as first reported and the order within an element.
 */
export function byElement(issues: Issue[]): Issue[] {
  const fields: string[] = [];
  const key = (path: string): [number, number] => {
    const m = /^([^.[]*)(?:\[(\d+)\])?/.exec(path)!;
    if (!fields.includes(m[1])) fields.push(m[1]);
    return [fields.indexOf(m[1]), m[2] === undefined ? -1 : Number(m[2])];
  };
  const keyed = issues.map((issue) => ({ issue, k: key(issue.path) }));
  return keyed.sort((a, b) => a.k[0] - b.k[0] || a.k[1] - b.k[1]).map((x) => x.issue);
}
