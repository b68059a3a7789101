/**
 * `fallow forecast` and `fallow forecast-eval` (issue 5): file handling and argument checks around the
 * pure engine in engine/forecast. Both return the exit code: 0 done, 2 bad usage or unreadable input.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  baselineForecast,
  BaselineKind,
  describeEval,
  forecast,
  ForecastInputError,
  MODELS,
  ModelKind,
  parseBitbrainsVm,
  parseHistoryCsv,
  Headroom,
  renderEvalTable,
  renderMatchedTable,
  runForecastEval,
  trainForecaster,
  UsageForecast,
  UsageHistory,
} from './engine/forecast';

export const FORECAST_USAGE = `  fallow forecast HISTORY.csv [--quantile 0.99] [--horizon-slots 480] [--slot-seconds 180] [--model ${MODELS.join('|')}] [--headroom D|cpu=D,ram=D] [--seed N] [--digits 4]
  fallow forecast-eval TRACES(dir|csv) [--train-days N] [--test-day D] [--quantiles 0.5,0.9,0.99] [--margin 0.05] [--slot-seconds 180] [--models gbt,...] [--headroom D|cpu=D,...] [--seed N] [--json]
  --headroom raises the GBT's forecasts by D (a fraction of capacity), never above the node's history maximum`;

/** Thrown for bad arguments: the caller prints the message and the usage, exit 2. */
export class ForecastUsageError extends Error {}

export async function forecastMain(command: 'forecast' | 'forecast-eval', args: string[]): Promise<number> {
  try {
    return command === 'forecast' ? forecastCommand(args) : forecastEvalCommand(args);
  } catch (e) {
    if (e instanceof ForecastUsageError) {
      process.stderr.write(`fallow ${command}: ${e.message}\nusage:\n${FORECAST_USAGE}\n`);
      return 2;
    }
    if (e instanceof ForecastInputError || (e as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      process.stderr.write(`fallow ${command}: ${(e as Error).message}\n`);
      return 2;
    }
    throw e;
  }
}

function forecastCommand(args: string[]): number {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      quantile: { type: 'string', default: '0.99' },
      'horizon-slots': { type: 'string', default: '480' },
      'slot-seconds': { type: 'string', default: '180' },
      model: { type: 'string', default: 'gbt' },
      headroom: { type: 'string' },
      seed: { type: 'string', default: '1' },
      digits: { type: 'string', default: '4' },
    },
  });
  if (positionals.length !== 1) throw new ForecastUsageError('forecast needs exactly one HISTORY.csv');
  const q = fraction('--quantile', values.quantile);
  const horizonSlots = positiveInt('--horizon-slots', values['horizon-slots']);
  const slotSeconds = positiveNumber('--slot-seconds', values['slot-seconds']);
  const seed = integer('--seed', values.seed);
  const digits = integer('--digits', values.digits);
  const model = values.model as ModelKind;
  if (!MODELS.includes(model)) throw new ForecastUsageError(`--model must be one of ${MODELS.join(', ')}, got "${values.model}"`);
  const headroom = values.headroom === undefined ? undefined : parseHeadroom(values.headroom);
  if (headroom !== undefined && model !== 'gbt') throw new ForecastUsageError('--headroom applies to --model gbt only');
  const history = parseHistoryCsv(readText(positionals[0]));
  let usage: UsageForecast;
  if (model === 'gbt') {
    const m = trainForecaster(history, { quantiles: [q], slotSeconds, horizonSlots, seed });
    usage = forecast(m, undefined, horizonSlots, { headroom })[0].usage;
  } else usage = baselineForecast(model as BaselineKind, history, { q, slotSeconds, horizonSlots });
  const scale = 10 ** Math.max(0, Math.min(12, digits));
  const rounded = JSON.stringify(usage, (_, v) => (typeof v === 'number' ? Math.round(v * scale) / scale : v));
  process.stdout.write(rounded + '\n');
  return 0;
}

function forecastEvalCommand(args: string[]): number {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      'train-days': { type: 'string' },
      'test-day': { type: 'string' },
      quantiles: { type: 'string', default: '0.5,0.9,0.99' },
      margin: { type: 'string', default: '0.05' },
      'slot-seconds': { type: 'string', default: '180' },
      models: { type: 'string', default: MODELS.join(',') },
      headroom: { type: 'string' },
      seed: { type: 'string', default: '1' },
      json: { type: 'boolean', default: false },
    },
  });
  if (positionals.length !== 1) throw new ForecastUsageError('forecast-eval needs exactly one traces directory or CSV');
  const quantiles = values.quantiles.split(',').map((s) => fraction('--quantiles', s.trim()));
  const models = values.models.split(',').map((s) => s.trim()) as ModelKind[];
  for (const m of models) if (!MODELS.includes(m)) throw new ForecastUsageError(`--models: unknown model "${m}" (known: ${MODELS.join(', ')})`);
  const margin = Number(values.margin);
  if (!(margin >= 0 && margin < 1)) throw new ForecastUsageError(`--margin must be a fraction in [0, 1), got "${values.margin}"`);
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
    if (v.trim() === '' || !(x >= 0 && x <= 1)) throw new ForecastUsageError(`${name} must be a fraction of capacity in [0, 1], got "${v}"`);
    return x;
  };
  if (!text.includes('=')) return fractionIn('--headroom', text);
  const out: Record<string, number> = {};
  for (const part of text.split(',')) {
    const [metric, v, extra] = part.split('=');
    if (!metric?.trim() || v === undefined || extra !== undefined) throw new ForecastUsageError(`--headroom: expected METRIC=FRACTION, got "${part}"`);
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

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new ForecastInputError(`cannot read ${file}: ${(e as Error).message}`);
  }
}

function fraction(name: string, s: string): number {
  const x = Number(s);
  if (!(x > 0 && x < 1)) throw new ForecastUsageError(`${name} must be a number strictly between 0 and 1, got "${s}"`);
  return x;
}

function positiveNumber(name: string, s: string): number {
  const x = Number(s);
  if (!(x > 0 && Number.isFinite(x))) throw new ForecastUsageError(`${name} must be a positive number, got "${s}"`);
  return x;
}

function positiveInt(name: string, s: string): number {
  const x = Number(s);
  if (!(Number.isInteger(x) && x > 0)) throw new ForecastUsageError(`${name} must be a positive integer, got "${s}"`);
  return x;
}

function integer(name: string, s: string): number {
  const x = Number(s);
  if (!Number.isInteger(x)) throw new ForecastUsageError(`${name} must be an integer, got "${s}"`);
  return x;
}
