import { MAX_TIME_MS, parseIsoDateTime } from '../../engine/model/input-bounds';
import { Issue } from '../../engine/model/types';
import { show } from '../../engine/model/validate';
import type { ClusterVersionEntity } from '../clusters/cluster.entity';
import { engineIssues } from '../common/document-validation';
import type { CreateForecastDto } from './forecast.dto';

export const MAX_FORECAST_SLOTS = 1_000_000;

/**
 * Everything wrong with a forecast for a cluster version. The series are checked by the engine's instance
 * validator on a wrapper instance (the version's metrics and nodes, the forecast's window and usage, no
 * jobs); its `horizon.*` paths are renamed to the request's top-level `slots` and `slotSeconds`.
 */
/**
 * A forecast of `slots` slots of this cluster version is slots x nodes x metrics values: over `maxPoints`
 * (FALLOW_MAX_FORECAST_POINTS) it is refused at `path` for its size alone, whether posted or built.
 */
export function forecastSizeIssues(slots: unknown, version: Pick<ClusterVersionEntity, 'metrics' | 'nodes'>, maxPoints: number, path: string): Issue[] {
  const points = Number.isInteger(slots) && (slots as number) > 0 ? (slots as number) * version.nodes.length * version.metrics.length : 0;
  if (points <= maxPoints) return [];
  return [
    {
      path,
      message: `${slots} slots x ${version.nodes.length} nodes x ${version.metrics.length} metrics is ${points} values, over the limit of ${maxPoints} (FALLOW_MAX_FORECAST_POINTS): ask for fewer slots or longer ones`,
    },
  ];
}

export function forecastIssues(dto: CreateForecastDto, version: Pick<ClusterVersionEntity, 'metrics' | 'nodes'>, maxPoints = Infinity): Issue[] {
  // Before the series are walked: a forecast too large to hold is refused for its size alone.
  const tooLarge = forecastSizeIssues(dto.slots, version, maxPoints, 'slots');
  const issues: Issue[] = [...tooLarge];
  if (dto.quantile !== undefined && !(typeof dto.quantile === 'number' && dto.quantile > 0 && dto.quantile < 1))
    issues.push({ path: 'quantile', message: `must be a number strictly between 0 and 1, got ${show(dto.quantile)}` });
  if (Number.isInteger(dto.slots) && dto.slots > MAX_FORECAST_SLOTS) issues.push({ path: 'slots', message: `must be at most ${MAX_FORECAST_SLOTS}, got ${dto.slots}` });
  if (dto.startsAt !== undefined && !(typeof dto.startsAt === 'string' && isIsoDateTime(dto.startsAt)))
    issues.push({ path: 'startsAt', message: `must be an ISO 8601 date-time with a time zone (e.g. 2026-11-25T00:00:00Z), got ${show(dto.startsAt)}` });
  else if (dto.startsAt !== undefined && !(Date.parse(dto.startsAt) >= MIN_FORECAST_START_MS))
    issues.push({ path: 'startsAt', message: `must be on or after 2000-01-01, got ${show(dto.startsAt)}` });
  else if (typeof dto.slots === 'number' && typeof dto.slotSeconds === 'number' && Number.isFinite(dto.slots * dto.slotSeconds)) {
    const end = (dto.startsAt === undefined ? Date.now() : Date.parse(dto.startsAt)) + dto.slots * dto.slotSeconds * 1000;
    if (end > MAX_TIME_MS) issues.push({ path: 'startsAt', message: `the forecast would end after 9999-12-31 (startsAt + slots x slotSeconds)` });
  }
  if (dto.usage === undefined || dto.usage === null) issues.push({ path: 'usage', message: 'required: an object of node -> metric -> fractions, one per slot' });
  if (tooLarge.length) return issues; // its series are not walked: that is the cost the limit avoids
  const wrapper = {
    name: 'forecast',
    horizon: { slots: dto.slots, slotSeconds: dto.slotSeconds },
    metrics: version.metrics,
    nodes: version.nodes,
    usage: dto.usage ?? undefined,
    jobs: [],
  };
  for (const i of engineIssues(wrapper, /^(usage|horizon)(\[|\.|$)/))
    issues.push({ path: i.path.replace(/^horizon\./, ''), message: i.message.replace('horizon.slots', 'slots') });
  const rank = (path: string) => ['slots', 'slotSeconds', 'quantile', 'startsAt'].indexOf(path) >>> 0; // the window first, then the series
  return issues.sort((a, b) => rank(a.path) - rank(b.path));
}

const MIN_FORECAST_START_MS = Date.parse('2000-01-01T00:00:00Z');

/** An ISO 8601 date-time with its zone (Z or an offset) of a day the calendar has. */
function isIsoDateTime(s: string): boolean {
  return parseIsoDateTime(s) !== undefined;
}
