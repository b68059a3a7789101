import { Issue } from '../../engine/model/types';

/** Samples in one request at most (400k is a week of 100 nodes x 2 metrics at 5 minutes). */
export const MAX_SAMPLES_PER_REQUEST = 2_000_000;
/** Problems listed in a 422 at most; the detail gives the total. */
export const MAX_LISTED_PROBLEMS = 100;
/** Timestamps are whole Unix seconds in [2000-01-01, 2100-01-01): anything else is a unit mistake (ms, ...). */
export const MIN_TIMESTAMP = 946_684_800;
export const MAX_TIMESTAMP = 4_102_444_800;

/** A request's samples, columnar: row i is series[seriesOf[i]] at ts[i] (Unix seconds) with value[i]. */
export interface SampleColumns {
  series: { node: string; metric: string }[];
  seriesOf: Int32Array;
  ts: Float64Array;
  value: Float64Array;
}

/** Collects the problems of a request, listing the first MAX_LISTED_PROBLEMS and counting the rest. */
export class IssueList {
  readonly listed: Issue[] = [];
  count = 0;
  add(path: string, message: string): void {
    if (this.count++ < MAX_LISTED_PROBLEMS) this.listed.push({ path, message });
  }
}

/**
 * Builds the columns while checking each sample against the cluster's nodes and metrics. The series map is
 * nested (node -> metric -> index) so that a row costs two Map lookups and no string concatenation.
 */
export class SampleCollector {
  private readonly index = new Map<string, Map<string, number>>();
  readonly series: SampleColumns['series'] = [];
  readonly seriesOf: Int32Array;
  readonly ts: Float64Array;
  readonly value: Float64Array;
  rows = 0;

  constructor(
    capacity: number,
    private readonly nodes: ReadonlySet<string>,
    private readonly metrics: ReadonlySet<string>,
    readonly issues: IssueList,
  ) {
    this.seriesOf = new Int32Array(capacity);
    this.ts = new Float64Array(capacity);
    this.value = new Float64Array(capacity);
  }

  /**
   * Checks one sample; `at(field)` names a field for a problem (`samples[3].value`, `line 4`) and
   * `prefix` is prepended to messages (CSV names the field in the message). Bad samples are not stored.
   */
  add(timestamp: unknown, node: unknown, metric: unknown, value: unknown, at: (field: string) => string, prefix: (field: string) => string): void {
    let ok = true;
    if (typeof timestamp !== 'number' || !Number.isInteger(timestamp) || timestamp < MIN_TIMESTAMP || timestamp >= MAX_TIMESTAMP) {
      this.issues.add(at('timestamp'), `${prefix('timestamp')}must be whole Unix seconds between 2000-01-01 and 2100-01-01, got ${show(timestamp)}`);
      ok = false;
    }
    if (typeof node !== 'string' || !this.nodes.has(node)) {
      this.issues.add(at('node'), `${prefix('node')}${typeof node === 'string' ? `unknown node ${JSON.stringify(node)} (not in the cluster's current version)` : `must be a node id, got ${show(node)}`}`);
      ok = false;
    }
    if (typeof metric !== 'string' || !this.metrics.has(metric)) {
      this.issues.add(at('metric'), `${prefix('metric')}${typeof metric === 'string' ? `unknown metric ${JSON.stringify(metric)} (the cluster has ${[...this.metrics].join(', ')})` : `must be a metric name, got ${show(metric)}`}`);
      ok = false;
    }
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
      this.issues.add(at('value'), `${prefix('value')}must be a utilisation fraction in [0, 1] (not a percentage), got ${show(value)}`);
      ok = false;
    }
    if (!ok || this.issues.count > 0) return; // once anything is wrong nothing is written: stop filling columns
    let byMetric = this.index.get(node as string);
    if (!byMetric) this.index.set(node as string, (byMetric = new Map()));
    let s = byMetric.get(metric as string);
    if (s === undefined) {
      s = this.series.length;
      byMetric.set(metric as string, s);
      this.series.push({ node: node as string, metric: metric as string });
    }
    const i = this.rows++;
    this.seriesOf[i] = s;
    this.ts[i] = timestamp as number;
    this.value[i] = value as number;
  }

  columns(): SampleColumns {
    return { series: this.series, seriesOf: this.seriesOf.subarray(0, this.rows), ts: this.ts.subarray(0, this.rows), value: this.value.subarray(0, this.rows) };
  }
}

export function show(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v);
  if (v === undefined) return 'nothing';
  if (typeof v === 'number') return String(v);
  return JSON.stringify(v)?.slice(0, 60) ?? String(v);
}
