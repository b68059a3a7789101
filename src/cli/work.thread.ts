/**
 * Thread entry of the CLI's long commands other than solve (which uses the worker's solve thread): the
 * computation runs here so that the command's main thread can draw its progress every quarter second.
 * The inputs were checked on the main thread; an engine ValidationError still comes back as `input`.
 */
import { baselineForecast, BaselineKind, forecast, ForecastInputError, Headroom, trainForecaster, UsageForecast, UsageHistory } from '../engine/forecast';
import { ValidationError } from '../engine/model/errors';
import { loadInstance } from '../engine/model/model';
import type { InstanceDoc, PlanDoc } from '../engine/model/types';
import { simulatePlan, simulatePolicy, SimulateOptions } from '../engine/simulate';
import { serveThread } from '../engine/threads/thread-entry';
import type { SimReport } from '../engine/simulate';

export type CliWork =
  | { kind: 'simulate'; instance: InstanceDoc; plan: PlanDoc | null; policy: string | null; options: SimulateOptions }
  | { kind: 'forecast'; history: UsageHistory; model: 'gbt' | BaselineKind; q: number; slotSeconds: number; horizonSlots: number; seed: number; headroom?: Headroom };

export function runCliWork(w: CliWork): SimReport | UsageForecast {
  if (w.kind === 'simulate') {
    const model = loadInstance(w.instance);
    return w.policy !== null ? simulatePolicy(model, w.policy, w.options) : simulatePlan(model, w.plan!, w.options);
  }
  if (w.model === 'gbt') {
    const m = trainForecaster(w.history, { quantiles: [w.q], slotSeconds: w.slotSeconds, horizonSlots: w.horizonSlots, seed: w.seed });
    return forecast(m, undefined, w.horizonSlots, { headroom: w.headroom })[0].usage;
  }
  return baselineForecast(w.model, w.history, { q: w.q, slotSeconds: w.slotSeconds, horizonSlots: w.horizonSlots });
}

serveThread<CliWork, never, SimReport | UsageForecast>((w) => runCliWork(w), {
  isInputError: (e) => e instanceof ValidationError || e instanceof ForecastInputError,
  describe: (e) => (e instanceof ValidationError ? `${e.what} is not valid: ${e.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}` : String((e as Error)?.message ?? e)),
});
