import { gbtLagSlots, slotOf, slotsPerDay } from '../../engine/forecast';
import { Issue } from '../../engine/model/types';
import { show } from '../../engine/model/validate';
import { BUILD_MODELS } from '../forecasts/forecast-provenance';
import { MAX_FORECAST_SLOTS } from '../forecasts/forecasts.service';

/** Longest window a build forecasts: the GBT's lag grows with it (whole days), so its history must too. */
export const MAX_BUILD_HORIZON_SECONDS = 7 * 86_400;
export const MAX_TRAINING_DAYS = 28;

export interface BuildRequest {
  quantile?: unknown;
  horizonSlots?: unknown;
  slotSeconds?: unknown;
  model?: unknown;
  trainingDays?: unknown;
  headroom?: unknown;
}

/** Everything wrong with a build request, each with its path. */
export function buildIssues(dto: BuildRequest): Issue[] {
  const issues: Issue[] = [];
  const q = dto.quantile;
  if (q !== undefined && !(typeof q === 'number' && q > 0 && q < 1)) issues.push({ path: 'quantile', message: `must be a number strictly between 0 and 1, got ${show(q)}` });
  const S = dto.slotSeconds;
  const slotOk = isInt(S) && S >= 1 && S <= 86_400;
  if (!slotOk) issues.push({ path: 'slotSeconds', message: `required: whole seconds in [1, 86400], got ${show(S)}` });
  const H = dto.horizonSlots;
  if (!(isInt(H) && H >= 1 && H <= MAX_FORECAST_SLOTS)) issues.push({ path: 'horizonSlots', message: `required: an integer in [1, ${MAX_FORECAST_SLOTS}], got ${show(H)}` });
  else if (slotOk && H * (S as number) > MAX_BUILD_HORIZON_SECONDS)
    issues.push({ path: 'horizonSlots', message: `at most ${MAX_BUILD_HORIZON_SECONDS / 86_400} days: ${Math.floor(MAX_BUILD_HORIZON_SECONDS / (S as number))} slots of ${S} s, got ${H}` });
  if (dto.model !== undefined && !BUILD_MODELS.includes(dto.model as never)) issues.push({ path: 'model', message: `must be one of ${BUILD_MODELS.join(', ')}, got ${show(dto.model)}` });
  const D = dto.trainingDays;
  if (D !== undefined && !(isInt(D) && D >= 1 && D <= MAX_TRAINING_DAYS)) issues.push({ path: 'trainingDays', message: `must be an integer in [1, ${MAX_TRAINING_DAYS}], got ${show(D)}` });
  const h = dto.headroom;
  if (h !== undefined) {
    if (!(typeof h === 'number' && h >= 0 && h <= 1)) issues.push({ path: 'headroom', message: `must be a fraction of capacity in [0, 1], got ${show(h)}` });
    else if (h > 0 && (dto.model ?? 'gbt') !== 'gbt') issues.push({ path: 'headroom', message: `applies to model gbt only, got model ${show(dto.model)}` });
  }
  return issues;
}

/**
 * The GBT's history rule (gbtLagSlots: a training row needs the lag's whole days of history before it), on the
 * span the build would train on (first and last sample, Unix seconds): the slot grid from the first sample's
 * slot to the last's must hold more than the lag. Checked at the request, as the history is known then; the
 * builder applies the same rule. Only for a well-formed gbt request with history (none at all: the build fails with that reason).
 */
export function historyIssues(dto: { model?: unknown; slotSeconds: number; horizonSlots: number; trainingDays?: unknown }, clusterId: string, span: { from: number; to: number } | null): Issue[] {
  if ((dto.model ?? 'gbt') !== 'gbt' || !span) return [];
  const S = dto.slotSeconds;
  const lag = gbtLagSlots(dto.horizonSlots, S);
  const held = slotOf(span.to, S) - slotOf(span.from, S) + 1;
  if (held > lag) return [];
  const iso = (t: number) => new Date(t * 1000).toISOString();
  const window = dto.trainingDays !== undefined ? ` in the last ${dto.trainingDays} days (trainingDays)` : '';
  return [
    {
      path: 'model',
      message:
        `gbt needs more usage history than its lag of ${lag} slots of ${S} s (${lag / slotsPerDay(S)} day(s), whole days covering horizonSlots ${dto.horizonSlots}): ` +
        `at least ${lag + 1} slots, and cluster ${clusterId} holds ${held}${window} (${((span.to - span.from) / 86_400).toFixed(1)} days, ${iso(span.from)} to ${iso(span.to)}); ` +
        'post more usage, ask for fewer horizonSlots, or use a baseline model (last-day, slot-quantile, max)',
    },
  ];
}

function isInt(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v);
}
