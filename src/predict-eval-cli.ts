/**
 * fallow predict-eval [--alibaba batch_task.csv] [--swim FB-2010_....tsv] [--jobs N] [--seed N] [--json]
 * Accuracy of POSUM's runtime predictors (src/engine/predict) on the Alibaba 2017 batch tasks and on
 * SWIM-sized jobs run through the simulator (src/predict-eval), against a global-mean baseline; with
 * --plan-quality, also how a plan solved on predicted durations fares against one solved on the truth.
 * Without a file, the traces beside the repository (../shared/data) are used when present.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { evaluateAlibaba, parseAlibaba } from './predict-eval/alibaba';
import { evaluateSwim, parseSwim, planQuality, SWIM_DEFAULTS } from './predict-eval/swim';

export const PREDICT_EVAL_USAGE = `  fallow predict-eval [--alibaba batch_task.csv] [--swim FB-2010_samples_24_times_1hr_0.tsv] [--jobs N] [--seed N] [--plan-quality] [--json]`;

const SHARED = path.resolve(__dirname, '..', '..', '..', 'shared', 'data');
const DEFAULT_ALIBABA = path.join(SHARED, 'alibaba-v2017-batch-task', 'batch_task.csv');
const DEFAULT_SWIM = path.join(SHARED, 'swim-facebook', 'FB-2010_samples_24_times_1hr_0.tsv');

export async function predictEvalCommand(args: string[]): Promise<number> {
  let values;
  try {
    values = parseArgs({
      args,
      options: {
        alibaba: { type: 'string' },
        swim: { type: 'string' },
        jobs: { type: 'string', default: String(SWIM_DEFAULTS.jobs) },
        seed: { type: 'string', default: '1' },
        'plan-quality': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (e) {
    return usage((e as Error).message);
  }
  if (values.help) return process.stdout.write(`usage:\n${PREDICT_EVAL_USAGE}\n`), 0;
  const jobs = Number(values.jobs);
  const seed = Number(values.seed);
  if (!Number.isInteger(jobs) || jobs < 1) return usage(`--jobs must be an integer >= 1, got "${values.jobs}"`);
  if (!Number.isInteger(seed)) return usage(`--seed must be an integer, got "${values.seed}"`);
  const given = values.alibaba !== undefined || values.swim !== undefined;
  const alibaba = values.alibaba ?? (!given && existsSync(DEFAULT_ALIBABA) ? DEFAULT_ALIBABA : undefined);
  const swim = values.swim ?? (!given && existsSync(DEFAULT_SWIM) ? DEFAULT_SWIM : undefined);
  if (!alibaba && !swim) return usage('give --alibaba FILE and/or --swim FILE (no traces found beside the repository)');
  const read = (file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (e) {
      throw new InputError(`cannot read ${file}: ${(e as Error).message}`);
    }
  };
  try {
    const out: Record<string, unknown> = {};
    if (alibaba) {
      const tasks = parseAlibaba(read(alibaba));
      out.alibaba = { file: alibaba, ...evaluateAlibaba(tasks, 'ended-before') };
      out.alibabaRestOfJob = { file: alibaba, ...evaluateAlibaba(tasks, 'rest-of-job') };
    }
    if (swim) {
      const trace = parseSwim(read(swim));
      const options = { ...SWIM_DEFAULTS, jobs, seed };
      out.swim = { file: swim, ...evaluateSwim(trace, options) };
      if (values['plan-quality']) out.planQuality = await planQuality(trace, options);
    }
    process.stdout.write(values.json ? JSON.stringify(out, null, 1) + '\n' : text(out));
    return 0;
  } catch (e) {
    if (e instanceof InputError) return process.stderr.write(`fallow: ${e.message}\n`), 2;
    throw e;
  }
}

class InputError extends Error {}

function usage(message: string): number {
  process.stderr.write(`fallow: ${message}\nusage:\n${PREDICT_EVAL_USAGE}\n`);
  return 2;
}

/** One line per predictor and bucket: median and 90th-percentile APE, coverage. */
function text(out: Record<string, unknown>): string {
  const lines: string[] = [];
  for (const [name, r] of Object.entries(out)) {
    const acc = (r as { accuracy?: Record<string, Record<string, { n: number; coverage: number; medianApe: number; p90Ape: number }>> }).accuracy;
    if (!acc) {
      lines.push(`${name}: ${JSON.stringify(r)}`);
      continue;
    }
    lines.push(`${name}:`);
    for (const [predictor, buckets] of Object.entries(acc))
      for (const [bucket, a] of Object.entries(buckets))
        lines.push(`  ${predictor.padEnd(12)} ${bucket.padEnd(7)} median APE ${String(a.medianApe).padStart(7)}%  p90 ${String(a.p90Ape).padStart(8)}%  n ${a.n} (${(100 * a.coverage).toFixed(0)}%)`);
  }
  return lines.join('\n') + '\n';
}
