import { isISO8601 } from 'class-validator';
import { InstanceDoc, Issue } from '../../engine/model/types';
import { show } from '../../engine/model/validate';
import { QOS_NAMES } from '../../engine/qos';
import { MIN_QOS_PERIOD_SECONDS } from '../../engine/simulate/simulator';

export interface SimulationRequest {
  actualUsage?: unknown;
  actualForecastId?: unknown;
  qos?: unknown;
  qosPeriodSeconds?: unknown;
  seed?: unknown;
  reduceSlowstart?: unknown;
  runtimeSigma?: unknown;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Everything wrong with the request itself, each with its path. The usage series are checked against the
 * plan's instance afterwards (the simulator's own validateActualUsage), since that needs the instance.
 */
export function simulationIssues(dto: SimulationRequest): Issue[] {
  const issues: Issue[] = [];
  if (dto.actualUsage !== undefined && dto.actualForecastId !== undefined)
    issues.push({ path: 'actualForecastId', message: 'give actualUsage or actualForecastId, not both' });
  if (dto.actualForecastId !== undefined && !(typeof dto.actualForecastId === 'string' && UUID.test(dto.actualForecastId)))
    issues.push({ path: 'actualForecastId', message: `must be the uuid of a forecast of the plan's cluster, got ${show(dto.actualForecastId)}` });
  if (dto.qos !== undefined && !QOS_NAMES.includes(dto.qos as string)) issues.push({ path: 'qos', message: `must be one of ${QOS_NAMES.join(', ')}, got ${show(dto.qos)}` });
  const period = dto.qosPeriodSeconds;
  if (period !== undefined && !(typeof period === 'number' && Number.isFinite(period) && period >= MIN_QOS_PERIOD_SECONDS))
    issues.push({ path: 'qosPeriodSeconds', message: `must be a number of seconds >= ${MIN_QOS_PERIOD_SECONDS} (at most the slot length), got ${show(period)}` });
  const s = dto.seed;
  if (s !== undefined && !(typeof s === 'number' && Number.isInteger(s) && s >= 0 && s <= 2 ** 31 - 1))
    issues.push({ path: 'seed', message: `must be an integer in [0, 2147483647], got ${show(s)}` });
  const f = dto.reduceSlowstart;
  if (f !== undefined && !(typeof f === 'number' && f > 0 && f <= 1)) issues.push({ path: 'reduceSlowstart', message: `must be a number in (0, 1], got ${show(f)}` });
  const sigma = dto.runtimeSigma;
  if (sigma !== undefined && !(typeof sigma === 'number' && sigma >= 0 && sigma <= 3)) issues.push({ path: 'runtimeSigma', message: `must be a number in [0, 3], got ${show(sigma)}` });
  return issues;
}

/** A policy run's start and stale-forecast switch, checked as a solve's (CreateSolveDto's startsAt and allowStaleForecast). */
export function policyStartIssues(dto: { startsAt?: unknown; allowStaleForecast?: unknown }): Issue[] {
  const issues: Issue[] = [];
  if (dto.startsAt !== undefined && !(typeof dto.startsAt === 'string' && isISO8601(dto.startsAt, { strict: true })))
    issues.push({ path: 'startsAt', message: `must be an ISO 8601 date-time with a zone, e.g. 2030-01-01T00:00:00Z, got ${show(dto.startsAt)}` });
  if (dto.allowStaleForecast !== undefined && typeof dto.allowStaleForecast !== 'boolean')
    issues.push({ path: 'allowStaleForecast', message: `must be a boolean, got ${show(dto.allowStaleForecast)}` });
  return issues;
}

/** A provisioning policy leases the cluster's `lease` nodes: on a cluster without any it would run the allocation policy alone, unlike what was asked. */
export function provisionIssues(provision: unknown, instance: InstanceDoc): Issue[] {
  if (provision === undefined || instance.nodes.some((n) => n.lease)) return [];
  return [{ path: 'provision', message: `${show(provision)} leases the cluster's nodes that carry lease, and this cluster has none (${instance.nodes.length} nodes, all always up): leave provision out, or give nodes a lease` }];
}
