/**
 * fallow predict-eval [--alibaba batch_task.csv] [--swim FB-2010_....tsv] [--jobs N] [--seed N] [--json]
 * Accuracy of POSUM's runtime predictors (src/engine/predict) on the Alibaba 2017 batch tasks and on
 * SWIM-sized jobs run through the simulator (src/predict-eval), against a global-mean baseline; with
 * --plan-quality, also how a plan solved on predicted durations fares against one solved on the truth.
 * Without a file, the traces beside the repository (../shared/data) are used when present.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CommandSpec, parseCommand, UsageError } from './args';
import { readText } from './input';
import { evaluateAlibaba, parseAlibaba } from '../predict-eval/alibaba';
import { evaluateSwim, parseSwim, planQuality, SWIM_DEFAULTS } from '../predict-eval/swim';

export const PREDICT_EVAL = {
  name: 'predict-eval',
  synopsis: ['[--alibaba batch_task.csv] [--swim FB-2010_samples_24_times_1hr_0.tsv] [options]'],
  summary: "Score POSUM's runtime predictors on the Alibaba 2017 batch tasks and on SWIM-sized jobs run through the simulator.",
  options: {
    alibaba: { type: 'string', value: 'FILE', help: "the Alibaba 2017 trace's batch_task.csv" },
    swim: { type: 'string', value: 'FILE', help: 'a SWIM Facebook workload (.tsv)' },
    jobs: { type: 'string', default: String(SWIM_DEFAULTS.jobs), value: 'N', help: 'SWIM jobs simulated' },
    seed: { type: 'string', default: '1', value: 'N', help: 'seed of the simulation' },
    'plan-quality': { type: 'boolean', help: 'also compare a plan solved on predicted durations with one solved on the truth' },
    json: { type: 'boolean', help: 'print the report as JSON' },
  },
  notes: ['Without --alibaba or --swim, the traces beside the repository (../shared/data) are used when present.'],
} satisfies CommandSpec;

const SHARED = path.resolve(__dirname, '..', '..', '..', '..', 'shared', 'data');
const DEFAULT_ALIBABA = path.join(SHARED, 'alibaba-v2017-batch-task', 'batch_task.csv');
const DEFAULT_SWIM = path.join(SHARED, 'swim-facebook', 'FB-2010_samples_24_times_1hr_0.tsv');

export async function predictEvalCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(PREDICT_EVAL, args);
  if (positionals.length) throw new UsageError(`predict-eval takes its traces as --alibaba FILE and --swim FILE, got the argument "${positionals[0]}"`);
  const jobs = Number(values.jobs);
  const seed = Number(values.seed);
  if (!Number.isInteger(jobs) || jobs < 1) throw new UsageError(`--jobs must be an integer >= 1, got "${values.jobs}"`);
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer, got "${values.seed}"`);
  const given = values.alibaba !== undefined || values.swim !== undefined;
  const alibaba = values.alibaba ?? (!given && existsSync(DEFAULT_ALIBABA) ? DEFAULT_ALIBABA : undefined);
  const swim = values.swim ?? (!given && existsSync(DEFAULT_SWIM) ? DEFAULT_SWIM : undefined);
  if (!alibaba && !swim) throw new UsageError('give --alibaba FILE and/or --swim FILE (no traces found beside the repository)');
  const out: Record<string, unknown> = {};
  if (alibaba) {
    const tasks = parseAlibaba(readText(alibaba));
    out.alibaba = { file: alibaba, ...evaluateAlibaba(tasks, 'ended-before') };
    out.alibabaRestOfJob = { file: alibaba, ...evaluateAlibaba(tasks, 'rest-of-job') };
  }
  if (swim) {
    const trace = parseSwim(readText(swim));
    const options = { ...SWIM_DEFAULTS, jobs, seed };
    out.swim = { file: swim, ...evaluateSwim(trace, options) };
    if (values['plan-quality']) out.planQuality = await planQuality(trace, options);
  }
  process.stdout.write(values.json ? JSON.stringify(out, null, 1) + '\n' : text(out));
  return 0;
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
