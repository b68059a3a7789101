import type { Issue } from '../../engine/model/types';
import { isObject, show } from '../../engine/model/validate';
import { REPLAN_TRIGGERS, ReplanningSettingsEntity, ReplanTriggerKind } from './replanning.entity';

/** A week: the longest minimum interval, and the longest window a forecast miss is measured over is a day. */
export const MAX_MIN_INTERVAL_SECONDS = 7 * 86_400;
export const MIN_MISS_WINDOW_SECONDS = 60;
export const MAX_MISS_WINDOW_SECONDS = 86_400;

/** What a cluster has until its farmer sets it: no automatic re-planning; the rest is what PUT fills in. */
export const REPLANNING_DEFAULTS = {
  enabled: false,
  on: [...REPLAN_TRIGGERS] as ReplanTriggerKind[],
  forecastMissThreshold: 0.2,
  forecastMissWindowSeconds: 3600,
  minIntervalSeconds: 600,
};

export type ReplanningSettings = Omit<ReplanningSettingsEntity, 'clusterId' | 'updatedAt'>;

/**
 * Every problem of a PUT /v1/clusters/{id}/replanning body at once, by field: enabled must be given and be a
 * boolean; on, when given, a list of distinct triggers; the threshold a fraction in [0, 1]; the window whole
 * seconds in [MIN, MAX_MISS_WINDOW_SECONDS]; the interval whole seconds in [0, MAX_MIN_INTERVAL_SECONDS].
 * What is left out takes its default (REPLANNING_DEFAULTS).
 */
export function settingsIssues(body: unknown): { issues: Issue[]; settings?: ReplanningSettings } {
  if (!isObject(body)) return { issues: [{ path: 'body', message: 'must be an object {enabled, on?, forecastMissThreshold?, forecastMissWindowSeconds?, minIntervalSeconds?}' }] };
  const b = body as Record<string, unknown>;
  const issues: Issue[] = [];
  const given = (f: string) => b[f] !== undefined && b[f] !== null;
  if (typeof b.enabled !== 'boolean') issues.push({ path: 'enabled', message: `must be true or false, got ${show(b.enabled)}` });
  if (given('on')) {
    if (!Array.isArray(b.on)) issues.push({ path: 'on', message: `must be a list of ${REPLAN_TRIGGERS.join(', ')}, got ${show(b.on)}` });
    else
      b.on.forEach((t, i) => {
        if (!REPLAN_TRIGGERS.includes(t as ReplanTriggerKind)) issues.push({ path: `on[${i}]`, message: `must be one of ${REPLAN_TRIGGERS.join(', ')}, got ${show(t)}` });
        else if ((b.on as unknown[]).indexOf(t) < i) issues.push({ path: `on[${i}]`, message: `${t} is listed twice` });
      });
  }
  const number = (f: string, ok: (v: number) => boolean, what: string) => {
    if (given(f) && !(typeof b[f] === 'number' && Number.isFinite(b[f]) && ok(b[f] as number))) issues.push({ path: f, message: `must be ${what}, got ${show(b[f])}` });
  };
  number('forecastMissThreshold', (v) => v >= 0 && v <= 1, 'a fraction of capacity in [0, 1]');
  number('forecastMissWindowSeconds', (v) => Number.isInteger(v) && v >= MIN_MISS_WINDOW_SECONDS && v <= MAX_MISS_WINDOW_SECONDS, `whole seconds in [${MIN_MISS_WINDOW_SECONDS}, ${MAX_MISS_WINDOW_SECONDS}]`);
  number('minIntervalSeconds', (v) => Number.isInteger(v) && v >= 0 && v <= MAX_MIN_INTERVAL_SECONDS, `whole seconds in [0, ${MAX_MIN_INTERVAL_SECONDS}]`);
  if (issues.length) return { issues };
  const d = REPLANNING_DEFAULTS;
  return {
    issues,
    settings: {
      enabled: b.enabled as boolean,
      triggers: given('on') ? (b.on as ReplanTriggerKind[]) : d.on,
      forecastMissThreshold: given('forecastMissThreshold') ? (b.forecastMissThreshold as number) : d.forecastMissThreshold,
      forecastMissWindowSeconds: given('forecastMissWindowSeconds') ? (b.forecastMissWindowSeconds as number) : d.forecastMissWindowSeconds,
      minIntervalSeconds: given('minIntervalSeconds') ? (b.minIntervalSeconds as number) : d.minIntervalSeconds,
    },
  };
}
