/**
 * Accuracy of the runtime predictors (issue 23, POSUM section IV) and what predicted durations cost a plan:
 * - the Alibaba 2017 batch tasks (../shared/data/alibaba-v2017-batch-task), both readings of "the job's
 *   other tasks" (src/predict-eval/alibaba.ts);
 * - SWIM Facebook job sizes run through the simulator, where the truth is known (src/predict-eval/swim.ts),
 *   on two traces x `--seeds` seeds: the distribution of each predictor's median APE and how often the
 *   ordering detailed < standard < basic < global mean holds;
 * - plan quality: a batch solved by ls on true durations and on each predictor's, both replayed against
 *   the truth, per seed.
 * Writes bench/results/predict-<date>.json and bench/PREDICT.md. Needs ../shared (says so when absent).
 *
 *   npm run bench:predict -- [--seeds 5] [--jobs 200]
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Accuracy } from '../src/predict-eval/accuracy';
import { AlibabaResult, evaluateAlibaba, parseAlibaba } from '../src/predict-eval/alibaba';
import { evaluateSwim, parseSwim, planQuality, PlanQualityResult, SWIM_DEFAULTS, SwimResult } from '../src/predict-eval/swim';
import { machineInfo } from './lib/machine';
import { command, EntryArgs, nothingToRun, runEntry } from './lib/cli';
import { runLine } from './lib/markdown';
import { benchFile, sharedDir } from './lib/paths';
import { resultsFile, writeJson } from './lib/results';

const PREDICTORS = ['global-mean', 'basic', 'standard', 'detailed'];
const SWIM_TRACES = ['FB-2009_samples_24_times_1hr_0.tsv', 'FB-2010_samples_24_times_1hr_0.tsv'];

const COMMAND = command({
  name: 'bench:predict',
  usage: 'usage: npm run bench:predict -- [options]     (writes bench/results/predict-<date>.json and bench/PREDICT.md)',
  options: {
    seeds: { kind: 'integer', default: 5, arg: 'N', help: 'seeds per SWIM trace (default 5)' },
    jobs: { kind: 'integer', min: 1, default: 200, arg: 'N', help: 'jobs per SWIM run (default 200)' },
  },
});

async function main({ values }: EntryArgs<typeof COMMAND.options>): Promise<number | void> {
  const { seeds, jobs } = values;
  const data = path.join(sharedDir(), 'data');
  if (!existsSync(data)) return nothingToRun('bench:predict', `the traces in ${data} are absent (../shared or $FALLOW_SHARED)`);
  const alibabaTasks = parseAlibaba(readFileSync(path.join(data, 'alibaba-v2017-batch-task', 'batch_task.csv'), 'utf8'));
  const alibaba = { endedBefore: evaluateAlibaba(alibabaTasks, 'ended-before'), restOfJob: evaluateAlibaba(alibabaTasks, 'rest-of-job') };
  console.log(`alibaba: ${alibaba.endedBefore.tasks} tasks`);
  const swim: { trace: string; seed: number; result: SwimResult }[] = [];
  const plans: { seed: number; result: PlanQualityResult }[] = [];
  for (const trace of SWIM_TRACES) {
    const jobsOf = parseSwim(readFileSync(path.join(data, 'swim-facebook', trace), 'utf8'));
    for (let seed = 1; seed <= seeds; seed++) {
      const result = evaluateSwim(jobsOf, { ...SWIM_DEFAULTS, jobs, seed });
      swim.push({ trace, seed, result });
      console.log(`${trace} seed ${seed}: ${result.tasks} tasks, median APE ${PREDICTORS.map((p) => `${p} ${result.accuracy[p].all.medianApe}`).join(', ')}`);
      if (trace === SWIM_TRACES[1]) {
        const q = await planQuality(jobsOf, { ...SWIM_DEFAULTS, jobs, seed });
        plans.push({ seed, result: q });
        console.log(`  plan quality: truth ${q.truth.makespanSeconds} s; ${Object.entries(q.predicted).map(([p, r]) => `${p} ${r.makespanSeconds} s`).join(', ')}`);
      }
    }
  }
  const result = { date: new Date().toISOString(), machine: machineInfo(), seeds, jobs, alibaba, swim, plans };
  writeJson(resultsFile(`predict-${result.date.slice(0, 10)}.json`), result, { finalNewline: false });
  // Keep the at-scale section bench:predict-service wrote (between its markers).
  const file = benchFile('PREDICT.md');
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const kept = old.match(/<!-- predict-service:start[\s\S]*<!-- predict-service:end -->/);
  writeFileSync(file, report(result) + (kept ? `\n${kept[0]}\n` : ''));
  console.log('wrote bench/PREDICT.md');
}

const q3 = (xs: number[]) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (!s.length) return 'n/a';
  const at = (f: number) => s[Math.round(f * (s.length - 1))];
  return `${at(0)} / ${at(0.5)} / ${at(1)}`;
};

function alibabaTable(r: AlibabaResult): string[] {
  const buckets = ['all', '1', '2-4', '5-9', '10+'];
  const cell = (a: Accuracy) => (a.n ? `${a.medianApe} / ${a.p90Ape} (${a.n})` : 'n/a');
  return [
    `| predictor | ${buckets.map((b) => (b === 'all' ? 'all predicted' : `${b} other tasks`)).join(' | ')} |`,
    `|---|${buckets.map(() => '---|').join('')}`,
    ...['global-mean', 'basic', 'standard'].map((p) => `| ${p} | ${buckets.map((b) => cell(r.accuracy[p][b])).join(' | ')} |`),
  ];
}

function report(r: { date: string; machine: ReturnType<typeof machineInfo>; seeds: number; jobs: number; alibaba: { endedBefore: AlibabaResult; restOfJob: AlibabaResult }; swim: { trace: string; seed: number; result: SwimResult }[]; plans: { seed: number; result: PlanQualityResult }[] }): string {
  const kinds = ['all', 'map', 'reduce'];
  const ordering = (kind: string) => {
    const holds = r.swim.filter((s) => {
      const m = (p: string) => s.result.accuracy[p][kind].medianApe;
      return m('detailed') < m('standard') && m('standard') < m('basic') && m('basic') < m('global-mean');
    }).length;
    return `${holds} of ${r.swim.length}`;
  };
  const pairwise = (kind: string, a: string, b: string) => r.swim.filter((s) => s.result.accuracy[a][kind].medianApe < s.result.accuracy[b][kind].medianApe).length;
  const choices = Object.keys(r.plans[0]?.result.predicted ?? {});
  const lines = [
    '# Runtime predictors',
    '',
    runLine(r.date, r.machine, `npm run bench:predict -- --seeds ${r.seeds} --jobs ${r.jobs}`),
    'APE: absolute percentage error of a task\'s predicted runtime against its real one. Cells: median APE / 90th-percentile APE (tasks scored).',
    '',
    `## Alibaba 2017 batch tasks (${r.alibaba.endedBefore.tasks} finished tasks of ${r.alibaba.endedBefore.jobs} jobs)`,
    '',
    'From the tasks of the same job that ended before it (what an online predictor had seen):',
    '',
    ...alibabaTable(r.alibaba.endedBefore),
    '',
    'From all the other tasks of its job (what a recurring job\'s history would give):',
    '',
    ...alibabaTable(r.alibaba.restOfJob),
    '',
    `## SWIM job sizes through the simulator (${r.jobs} jobs per run; ${r.swim.length} runs: ${SWIM_TRACES.length} traces x ${r.seeds} seeds)`,
    '',
    'Median APE per run, min / median / max over the runs:',
    '',
    `| predictor | ${kinds.join(' | ')} | p90 APE (all) |`,
    `|---|${kinds.map(() => '---|').join('')}---|`,
    ...PREDICTORS.map((p) => `| ${p} | ${kinds.map((k) => q3(r.swim.map((s) => s.result.accuracy[p][k].medianApe))).join(' | ')} | ${q3(r.swim.map((s) => s.result.accuracy[p].all.p90Ape))} |`),
    '',
    `The full ordering (detailed < standard < basic < global mean, on median APE) holds in ${ordering('all')} runs over all tasks, ${ordering('map')} over maps, ${ordering('reduce')} over reduces.`,
    `Pairwise over all tasks: detailed beats standard in ${pairwise('all', 'detailed', 'standard')}, standard beats basic in ${pairwise('all', 'standard', 'basic')}, basic beats the global mean in ${pairwise('all', 'basic', 'global-mean')} of ${r.swim.length} runs;`,
    `over reduces: detailed beats standard in ${pairwise('reduce', 'detailed', 'standard')}, standard beats basic in ${pairwise('reduce', 'standard', 'basic')}.`,
    '',
    `## What predicted durations cost a plan (FB-2010, the last 12 jobs of each run as a batch, ls 2 s, replayed against the truth)`,
    '',
    `| seed | truth: makespan (planned), misses, relaunches | ${choices.map((c) => `${c}: median / p90 APE of the stages, makespan (planned), misses, relaunches, rejected`).join(' | ')} |`,
    `|---|---|${choices.map(() => '---|').join('')}`,
    ...r.plans.map(
      (p) =>
        `| ${p.seed} | ${p.result.truth.makespanSeconds} (${p.result.truth.plannedMakespanSeconds}), ${p.result.truth.deadlineMisses}, ${p.result.truth.relaunches} | ${choices
          .map((c) => {
            const x = p.result.predicted[c];
            return `${x.medianApe} / ${x.p90Ape}%, ${x.makespanSeconds} (${x.plannedMakespanSeconds}), ${x.deadlineMisses}, ${x.relaunches}, ${x.rejectedJobs}`;
          })
          .join(' | ')} |`,
    ),
    '',
  ];
  return lines.join('\n');
}

if (require.main === module) runEntry(COMMAND, main);
