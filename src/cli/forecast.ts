/**
 * `fallow forecast` and `fallow forecast-eval` (issue 5): file handling and argument checks around the
 * pure engine in engine/forecast. A bad option is a UsageError, an unreadable or malformed file a
 * ForecastInputError (both exit 2, src/cli/main.ts).
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { CommandSpec, parseCommand, UsageError } from './args';
import { readText } from './input';
import { runCliWork } from './progress';
import {
  describeEval,
  ForecastInputError,
  MODELS,
  ModelKind,
  parseBitbrainsVm,
  parseHistoryCsv,
  Headroom,
  renderEvalTable,
  renderMatchedTable,
  runForecastEval,
  UsageForecast,
  UsageHistory,
} from '../engine/forecast';

const HEADROOM_HELP = "raise the GBT's forecasts by D (a fraction of capacity, or per metric), never above the node's history maximum";

export const FORECAST = {
  name: 'forecast',
  synopsis: ['HISTORY.csv [options] > usage.json'],
  summary: "Forecast each node's utilisation from a history CSV (timestamp,node,metric,value) as an instance's `usage` map.",
  options: {
    quantile: { type: 'string', default: '0.99', value: 'Q', help: 'quantile forecast, strictly between 0 and 1' },
    'horizon-slots': { type: 'string', default: '480', value: 'N', help: 'slots forecast after the last sample' },
    'slot-seconds': { type: 'string', default: '180', value: 'S', help: 'length of a slot in seconds' },
    model: { type: 'string', default: 'gbt', value: 'NAME', help: MODELS.join(' | ') },
    headroom: { type: 'string', value: 'D|cpu=D,ram=D', help: HEADROOM_HELP },
    seed: { type: 'string', default: '1', value: 'N', help: 'seed of the GBT' },
    digits: { type: 'string', default: '4', value: 'N', help: 'decimals printed' },
    quiet: { type: 'boolean', help: 'no progress on stderr' },
  },
  notes: ['The CSV: Unix seconds, node id, metric, a fraction in [0, 1]; any regular sampling period (docs/FORMAT.md).'],
} satisfies CommandSpec;

export const FORECAST_EVAL = {
  name: 'forecast-eval',
  synopsis: ['TRACES [options]      (TRACES: a history CSV, or a directory of them or of Bitbrains VM files)'],
  summary: 'Score the GBT forecaster against the baselines on a held-out day of usage traces.',
  options: {
    'train-days': { type: 'string', value: 'N', help: 'days of training before the test day (default: every day before it)' },
    'test-day': { type: 'string', value: 'D', help: 'the day held out, 0 = the UTC day of the first sample (default: the last whole day)' },
    quantiles: { type: 'string', default: '0.5,0.9,0.99', value: 'Q,...', help: 'quantiles scored' },
    margin: { type: 'string', default: '0.05', value: 'F', help: 'safety margin, a fraction in [0, 1)' },
    'slot-seconds': { type: 'string', default: '180', value: 'S', help: 'length of a slot in seconds' },
    models: { type: 'string', default: MODELS.join(','), value: 'M,...', help: 'models scored' },
    headroom: { type: 'string', value: 'D|cpu=D,ram=D', help: HEADROOM_HELP },
    seed: { type: 'string', default: '1', value: 'N', help: 'seed of the GBT' },
    json: { type: 'boolean', help: 'print the report as JSON' },
  },
} satisfies CommandSpec;

export async function forecastCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(FORECAST, args);
  if (positionals.length !== 1) throw new UsageError('forecast needs exactly one HISTORY.csv');
  const q = fraction('--quantile', values.quantile);
  const horizonSlots = positiveInt('--horizon-slots', values['horizon-slots']);
  const slotSeconds = positiveNumber('--slot-seconds', values['slot-seconds']);
  const seed = integer('--seed', values.seed);
  const digits = integer('--digits', values.digits);
  const model = values.model as ModelKind;
  if (!MODELS.includes(model)) throw new UsageError(`--model must be one of ${MODELS.join(', ')}, got "${values.model}"`);
  const headroom = values.headroom === undefined ? undefined : parseHeadroom(values.headroom);
  if (headroom !== undefined && model !== 'gbt') throw new UsageError('--headroom applies to --model gbt only');
  const history = parseHistoryCsv(readText(positionals[0]));
  const usage = await runCliWork<UsageForecast>(`forecast ${model}`, { kind: 'forecast', input: { history, model, quantile: q, slotSeconds, horizonSlots, seed, headroom } }, values.quiet);
  const scale = 10 ** Math.max(0, Math.min(12, digits));
  const rounded = JSON.stringify(usage, (_, v) => (typeof v === 'number' ? Math.round(v * scale) / scale : v));
  process.stdout.write(rounded + '\n');
  return 0;
}

export function forecastEvalCommand(args: string[]): number {
  const { values, positionals } = parseCommand(FORECAST_EVAL, args);
  if (positionals.length !== 1) throw new UsageError('forecast-eval needs exactly one traces directory or CSV');
  const quantiles = values.quantiles.split(',').map((s) => fraction('--quantiles', s.trim()));
  const models = values.models.split(',').map((s) => s.trim()) as ModelKind[];
  for (const m of models) if (!MODELS.includes(m)) throw new UsageError(`--models: unknown model "${m}" (known: ${MODELS.join(', ')})`);
  const margin = Number(values.margin);
  if (!(margin >= 0 && margin < 1)) throw new UsageError(`--margin must be a fraction in [0, 1), got "${values.margin}"`);
  const report = runForecastEval(loadTraces(positionals[0]), {
    slotSeconds: positiveNumber('--slot-seconds', values['slot-seconds']),
    quantiles,
    margin,
    models,
    testDay: values['test-day'] === undefined ? undefined : integer('--test-day', values['test-day']),
    trainDays: values['train-days'] === undefined ? undefined : positiveInt('--train-days', values['train-days']),
    gbt: { seed: integer('--seed', values.seed) },
    headroom: values.headroom === undefined ? undefined : parseHeadroom(values.headroom),
  });
  if (values.json) process.stdout.write(JSON.stringify(report, null, 1) + '\n');
  else {
    const matched = renderMatchedTable(report);
    const atMax = matched ? `\n\nAt the history maximum's coverage (GBT raised by the least headroom that reaches it on this day):\n\n${matched}` : '';
    process.stdout.write(`${describeEval(report)}\n\n${renderEvalTable(report)}${atMax}\n`);
  }
  return 0;
}

/** `0.2` (every metric) or `cpu=0.2,ram=0.3` (per metric), each a fraction of capacity in [0, 1]. */
export function parseHeadroom(text: string): Headroom {
  const fractionIn = (name: string, v: string) => {
    const x = Number(v);
    if (v.trim() === '' || !(x >= 0 && x <= 1)) throw new UsageError(`${name} must be a fraction of capacity in [0, 1], got "${v}"`);
    return x;
  };
  if (!text.includes('=')) return fractionIn('--headroom', text);
  const out: Record<string, number> = {};
  for (const part of text.split(',')) {
    const [metric, v, extra] = part.split('=');
    if (!metric?.trim() || v === undefined || extra !== undefined) throw new UsageError(`--headroom: expected METRIC=FRACTION, got "${part}"`);
    out[metric.trim()] = fractionIn(`--headroom ${metric.trim()}`, v);
  }
  return out;
}

/**
 * A history CSV (header timestamp,node,metric,value), or a directory of *.csv files (searched
 * recursively): history CSVs are merged, any other file is read as one Bitbrains VM trace named after
 * the file (../shared/data/bitbrains-rnd/2013-7/12.csv -> node "12", metrics cpu and ram).
 */
export function loadTraces(source: string): UsageHistory {
  let stat;
  try {
    stat = statSync(source);
  } catch (e) {
    throw new ForecastInputError(`cannot read ${source}: ${(e as Error).message}`);
  }
  if (!stat.isDirectory()) return parseHistoryCsv(readText(source));
  const files = csvFiles(source).sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  if (files.length === 0) throw new ForecastInputError(`${source} holds no .csv files`);
  const history: UsageHistory = {};
  for (const file of files) {
    const text = readText(file);
    const rel = path.relative(source, file);
    if (/^\uFEFF?timestamp\s*,/i.test(text)) {
      try {
        Object.assign(history, parseHistoryCsv(text));
      } catch (e) {
        throw new ForecastInputError(`${rel}: ${(e as Error).message}`);
      }
    } else {
      // the file name is the VM id; the relative path only when two months hold the same id
      const full = rel.replace(/\.csv$/i, '').split(path.sep).join('/');
      const node = history[path.basename(full)] ? full : path.basename(full);
      history[node] = parseBitbrainsVm(text, rel);
    }
  }
  return history;
}

function csvFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? csvFiles(path.join(dir, d.name)) : /\.csv$/i.test(d.name) ? [path.join(dir, d.name)] : [],
  );
}


function fraction(name: string, s: string): number {
  const x = Number(s);
  if (!(x > 0 && x < 1)) throw new UsageError(`${name} must be a number strictly between 0 and 1, got "${s}"`);
  return x;
}

function positiveNumber(name: string, s: string): number {
  const x = Number(s);
  if (!(x > 0 && Number.isFinite(x))) throw new UsageError(`${name} must be a positive number, got "${s}"`);
  return x;
}

function positiveInt(name: string, s: string): number {
  const x = Number(s);
  if (!(Number.isInteger(x) && x > 0)) throw new UsageError(`${name} must be a positive integer, got "${s}"`);
  return x;
}

function integer(name: string, s: string): number {
  const x = Number(s);
  if (!Number.isInteger(x)) throw new UsageError(`${name} must be an integer, got "${s}"`);
  return x;
}
