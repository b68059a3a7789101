/**
 * What the rolling-origin scores (rolling.ts) say across nodes: each node's scores pooled over its held-out
 * days, then per metric and quantile the distribution of those over the nodes (p10, median, p90), the share
 * of nodes on which the GBT has the lowest pinball loss, the same for the mostly idle nodes against the
 * same-slot maximum, and per day the scores pooled over the nodes (what the hold-out tables show).
 */
import { ForecastScore } from './evaluate';
import { quantile } from './quantile';
import { NodeDayScore, RollingModel, RollingReport } from './rolling';

/** The models the GBT must beat on a node to count as a win there (slot-max is a reference only). */
export const WIN_AGAINST = ['last-day', 'slot-quantile', 'max'] as const;

/**
 * "Mostly idle" (a rule on the node's whole CPU trace, stated in bench/FORECAST.md): median below 5% of
 * capacity and 99th percentile below 10%, i.e. quiet nearly all the time, with at most small or rare spikes.
 */
export const IDLE_RULE = { median: 0.05, p99: 0.1 } as const;

export function isMostlyIdle(cpu: ArrayLike<number>): boolean {
  return quantile(cpu, 0.5) < IDLE_RULE.median && quantile(cpu, 0.99) < IDLE_RULE.p99;
}

export interface Dist {
  p10: number;
  median: number;
  p90: number;
}

export interface ModelDist {
  model: RollingModel;
  pinball: Dist;
  coverage: Dist;
}

export interface NodeGroupSummary {
  nodes: number;
  /** Share of the nodes where the GBT's pinball loss is below each of WIN_AGAINST. */
  gbtWins: number;
  /** Share where it is below that model's. */
  gbtBeats: Record<RollingModel, number>;
  /** Share where it is above the same-slot maximum's (the over-forecast the issue reports). */
  aboveSlotMax: number;
  /** Share where the GBT covered every scored slot. */
  fullCoverage: number;
  models: ModelDist[];
}

export interface QuantileSummary {
  metric: string;
  q: number;
  all: NodeGroupSummary;
  idle: NodeGroupSummary;
}

/** Every node pooled (slot-weighted) on one held-out day. */
export interface DaySummary {
  day: number;
  metric: string;
  q: number;
  pinball: Record<RollingModel, number>;
  /** The GBT's loss is below every WIN_AGAINST model's. */
  gbtWins: boolean;
}

export interface RollingSummary {
  idleNodes: string[];
  quantiles: QuantileSummary[];
  days: DaySummary[];
}

export function distribution(xs: number[]): Dist {
  return { p10: quantile(xs, 0.1), median: quantile(xs, 0.5), p90: quantile(xs, 0.9) };
}

/** Slot-weighted pooling of scores (each is a mean over its n slots). */
function pool(scores: ForecastScore[]): { pinball: number; coverage: number } {
  let n = 0;
  let loss = 0;
  let covered = 0;
  for (const s of scores) {
    if (!(s.n > 0)) continue;
    n += s.n;
    loss += s.n * s.pinball;
    covered += s.n * s.coverage;
  }
  return { pinball: loss / n, coverage: covered / n };
}

function group<K>(scores: NodeDayScore[], key: (s: NodeDayScore) => K): Map<K, NodeDayScore[]> {
  const out = new Map<K, NodeDayScore[]>();
  for (const s of scores) {
    const k = key(s);
    const list = out.get(k);
    if (list) list.push(s);
    else out.set(k, [s]);
  }
  return out;
}

export function summariseRolling(r: RollingReport, idle: ReadonlySet<string>): RollingSummary {
  const models = [...new Set(r.scores.map((s) => s.model))];
  const byNode = group(r.scores, (s) => `${s.metric}|${s.q}|${s.node}|${s.model}`);
  const nodeScore = (metric: string, q: number, node: string, model: RollingModel) => pool((byNode.get(`${metric}|${q}|${node}|${model}`) ?? []).map((s) => s.score));
  const summarise = (metric: string, q: number, nodes: string[]): NodeGroupSummary => {
    const scores = new Map(models.map((m) => [m, nodes.map((node) => nodeScore(metric, q, node, m))]));
    const gbt = scores.get('gbt')!;
    const share = (pred: (i: number) => boolean) => (nodes.length === 0 ? NaN : nodes.filter((_, i) => pred(i)).length / nodes.length);
    const loss = (m: RollingModel, i: number) => scores.get(m)?.[i].pinball ?? NaN;
    return {
      nodes: nodes.length,
      gbtWins: share((i) => WIN_AGAINST.every((m) => gbt[i].pinball < loss(m, i))),
      gbtBeats: Object.fromEntries(models.filter((m) => m !== 'gbt').map((m) => [m, share((i) => gbt[i].pinball < loss(m, i))])) as Record<RollingModel, number>,
      aboveSlotMax: share((i) => gbt[i].pinball > loss('slot-max', i)),
      fullCoverage: share((i) => gbt[i].coverage === 1),
      models: models.map((model) => ({ model, pinball: distribution(scores.get(model)!.map((s) => s.pinball)), coverage: distribution(scores.get(model)!.map((s) => s.coverage)) })),
    };
  };
  const nodes = r.nodes.filter((n) => r.scores.some((s) => s.node === n));
  const quantiles: QuantileSummary[] = [];
  for (const metric of r.metrics)
    for (const q of r.quantiles) quantiles.push({ metric, q, all: summarise(metric, q, nodes), idle: summarise(metric, q, nodes.filter((n) => idle.has(n))) });
  const byDay = group(r.scores, (s) => `${s.day}|${s.metric}|${s.q}|${s.model}`);
  const days: DaySummary[] = [];
  for (const { testDay: day } of r.folds)
    for (const metric of r.metrics)
      for (const q of r.quantiles) {
        const pinball = Object.fromEntries(models.map((m) => [m, pool((byDay.get(`${day}|${metric}|${q}|${m}`) ?? []).map((s) => s.score)).pinball])) as Record<RollingModel, number>;
        days.push({ day, metric, q, pinball, gbtWins: WIN_AGAINST.every((m) => pinball.gbt < pinball[m]) });
      }
  return { idleNodes: nodes.filter((n) => idle.has(n)), quantiles, days };
}
