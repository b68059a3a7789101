/**
 * The simulation benchmark under its two forecasts side by side: the newest results file of each
 * (bench/results/simulate-<date>-<forecast>.json, full runs only) rendered as one table of medians per
 * approach, so SIMULATION.md shows what the forecasting builder changed against the previous day.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const FORECASTS = ['gbt', 'previous-day'] as const;
export type ForecastKind = (typeof FORECASTS)[number];

interface CellLike {
  runs: number;
  rejected: number;
  unfinished: number;
  medianExecutionMin: number | null;
  medianComputeMin: number | null;
  medianRelaunchedPct: number;
  medianRemotePct: number;
}

interface ResultLike {
  date: string;
  command: string;
  setup: { forecastKind?: ForecastKind; margins: number[] };
  summary: {
    cells: Record<string, Record<string, CellLike>>;
    salamanderGainOverCuckooPct: Record<string, { mean: number | null }>;
    cuckooSpeedupOverHadoop: { median: number | null };
    cuckooComputeSpeedupOverHadoop: { median: number | null };
  };
}

export interface Latest {
  file: string;
  result: ResultLike;
}

/** The newest full-run results file per forecast (files without `setup.forecastKind` predate the option). */
export function latestResults(dir: string): Partial<Record<ForecastKind, Latest>> {
  const out: Partial<Record<ForecastKind, Latest>> = {};
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names.filter((n) => /^simulate-.*\.json$/.test(n) && !n.includes('-quick')).sort()) {
    const file = path.join(dir, name);
    const result = JSON.parse(readFileSync(file, 'utf8')) as ResultLike;
    const kind = result.setup?.forecastKind;
    if (!kind || !FORECASTS.includes(kind)) continue;
    const seen = out[kind];
    if (!seen || seen.result.date <= result.date) out[kind] = { file, result };
  }
  return out;
}

/** Markdown for SIMULATION.md, or null until both forecasts have a full run. */
export function forecastComparison(latest: Partial<Record<ForecastKind, Latest>>, root: string): string | null {
  const prev = latest['previous-day'];
  const gbt = latest.gbt;
  if (!prev || !gbt) return null;
  const f = (x: number | null | undefined, d = 1) => (x === null || x === undefined ? '–' : x.toFixed(d));
  const cell = (c: CellLike | undefined) =>
    c ? `${f(c.medianExecutionMin)} / ${f(c.medianComputeMin)} / ${f(c.medianRelaunchedPct)}% / ${f(c.medianRemotePct)}%${c.rejected ? ` (rej ${c.rejected})` : ''}${c.unfinished ? ` (unf ${c.unfinished})` : ''}` : '–';
  const approaches = [...new Set([...Object.keys(prev.result.summary.cells.all), ...Object.keys(gbt.result.summary.cells.all)])];
  const lines: string[] = [];
  lines.push(`From \`${path.relative(root, prev.file)}\` (\`${prev.result.command}\`) and \`${path.relative(root, gbt.file)}\` (\`${gbt.result.command}\`).`);
  lines.push('');
  lines.push('Medians over every run (job execution time incl. staging, min / cluster time, min / % relaunched / % remote):');
  lines.push('');
  lines.push('| approach | forecast: previous day | forecast: builder (GBT, q = 0.99) |');
  lines.push('|---|---|---|');
  for (const a of approaches) lines.push(`| ${a} | ${cell(prev.result.summary.cells.all[a])} | ${cell(gbt.result.summary.cells.all[a])} |`);
  const gain = (r: ResultLike) => Object.entries(r.summary.salamanderGainOverCuckooPct).map(([s, v]) => `${s} ${f(v.mean)}%`).join(', ');
  lines.push(`| Salamander's mean gain over Cuckoo | ${gain(prev.result)} | ${gain(gbt.result)} |`);
  const sp = (r: ResultLike) => `${f(r.summary.cuckooSpeedupOverHadoop.median, 2)}x (cluster only ${f(r.summary.cuckooComputeSpeedupOverHadoop.median, 2)}x)`;
  lines.push(`| Cuckoo vs Hadoop default (median) | ${sp(prev.result)} | ${sp(gbt.result)} |`);
  // The 256 MB remote tasks are where the forecast matters most for Salamander (hosts idle on the forecast day, saturated on the actual one).
  const groups = Object.keys(gbt.result.summary.cells).filter((g) => g.endsWith('/256'));
  if (groups.length > 0 && gbt.result.summary.cells.all['sal-ls']) {
    lines.push('');
    lines.push('`sal-ls` with 256 MB chunks, median % remote / % relaunched per cluster:');
    lines.push('');
    lines.push(`| forecast | ${groups.join(' | ')} |`);
    lines.push(`|---|${groups.map(() => '---').join('|')}|`);
    for (const [name, r] of [['previous day', prev], ['builder', gbt]] as const)
      lines.push(`| ${name} | ${groups.map((g) => { const c = r.result.summary.cells[g]?.['sal-ls']; return c ? `${f(c.medianRemotePct)}% / ${f(c.medianRelaunchedPct)}%` : '–'; }).join(' | ')} |`);
  }
  return lines.join('\n');
}
