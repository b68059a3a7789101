/**
 * One VM file of the Bitbrains GWA-T-12 traces (../shared/data/bitbrains-rnd/SOURCE.md): fields separated
 * by ";\t", a header line, timestamps in Unix seconds, 5-minute samples. Utilisation is usage over the
 * provisioned capacity of the same row (capacity can change during the trace): cpu = column 4 / column 3
 * (MHz), ram = column 7 / column 6 (KB). CPU usage slightly above the provisioned MHz (clock boost, up to
 * ~6% on some VMs) is clamped to 1; rows with no capacity are skipped.
 */
import { ForecastInputError, Series } from './types';

export function parseBitbrainsVm(text: string, source: string): { cpu: Series; ram: Series } {
  const t: number[] = [];
  const cpu: number[] = [];
  const ram: number[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 1; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    const c = lines[i].split(';').map((s) => Number(s.trim()));
    if (c.length < 7 || !c.slice(0, 7).every(Number.isFinite))
      throw new ForecastInputError(`${source} line ${i + 1}: expected at least 7 numeric ";"-separated fields`);
    if (!(c[2] > 0) || !(c[5] > 0)) continue;
    t.push(c[0]);
    cpu.push(Math.min(1, Math.max(0, c[3] / c[2])));
    ram.push(Math.min(1, Math.max(0, c[6] / c[5])));
  }
  const order = t.map((_, k) => k).sort((a, b) => t[a] - t[b]);
  const keep = order.filter((k, j) => j === 0 || t[k] !== t[order[j - 1]]);
  const ts = Float64Array.from(keep, (k) => t[k]);
  return { cpu: { t: ts, v: Float64Array.from(keep, (k) => cpu[k]) }, ram: { t: ts, v: Float64Array.from(keep, (k) => ram[k]) } };
}
