/**
 * Synthetic usage histories for the forecasting tests and the training-time benchmark: per node a daily
 * sine (random level, amplitude and phase) plus Gaussian noise plus rare short spikes, clamped to [0, 1].
 * Deterministic for a seed; no file from ../shared is needed.
 */
import { Random } from '../src/engine/random';
import { UsageHistory } from '../src/engine/forecast';

export interface TraceOptions {
  nodes: number;
  days: number;
  /** Sampling period in seconds (default 300, as Bitbrains). */
  periodSeconds?: number;
  metrics?: string[];
  /** Unix seconds of the first sample (default 2024-01-01 00:00 UTC, a Monday). */
  start?: number;
  noise?: number;
  /** Probability that a sample starts a spike (default 0.003). */
  spikeRate?: number;
  seed?: number;
}

export function syntheticHistory(o: TraceOptions): UsageHistory {
  const rng = new Random(o.seed ?? 1);
  const period = o.periodSeconds ?? 300;
  const start = o.start ?? 1_704_067_200;
  const n = Math.floor((o.days * 86_400) / period);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
  const history: UsageHistory = {};
  for (let k = 0; k < o.nodes; k++) {
    const node = `n${String(k + 1).padStart(3, '0')}`;
    history[node] = {};
    for (const metric of o.metrics ?? ['cpu', 'ram']) {
      const level = 0.1 + 0.5 * rng.next();
      const amp = 0.05 + 0.2 * rng.next();
      const phase = 2 * Math.PI * rng.next();
      const noise = (o.noise ?? 0.03) * (0.5 + rng.next());
      const t = new Float64Array(n);
      const v = new Float64Array(n);
      let spike = 0;
      for (let i = 0; i < n; i++) {
        t[i] = start + i * period;
        const dayPhase = (2 * Math.PI * (t[i] % 86_400)) / 86_400;
        if (spike === 0 && rng.next() < (o.spikeRate ?? 0.003)) spike = 1 + rng.int(4);
        const burst = spike > 0 ? 0.25 + 0.2 * rng.next() : 0;
        if (spike > 0) spike--;
        v[i] = Math.min(1, Math.max(0, level + amp * Math.sin(dayPhase + phase) + noise * gauss() + burst));
      }
      history[node][metric] = { t, v };
    }
  }
  return history;
}
