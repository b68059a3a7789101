/**
 * Forecast benchmark (issue 5): `forecast-eval` on the Bitbrains Rnd traces (../shared/data/bitbrains-rnd:
 * 80 VMs, 7 days of 5-minute CPU and memory samples) - train on days 0-5, hold out day 6 - at q = 0.5,
 * 0.9, 0.99 on 180-s slots with a 5% safety margin, and again holding out day 5 (trained on days 0-4) so
 * that no choice rests on one day; plus the training time for 100 nodes x 7 days of 5-minute samples x cpu
 * and ram (synthetic traces from test/support/usage-traces.ts, median of 3 runs), in this thread and with
 * the 2 x |quantiles| boosting runs on worker threads (src/worker/forecast-build-parallel.ts).
 *
 *   npm run bench:forecast            (= npm run build && node dist/bench/forecast.js)
 *   node dist/bench/forecast.js --out DIR   (both files into DIR instead: trials that must not touch bench/)
 *
 * Writes bench/results/forecast-<date>.json and bench/FORECAST.md. Without ../shared it says so, exits 0.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_GBT, DEFAULT_ROW_FRACTION, describeEval, EvalReport, renderEvalTable, runForecastEval, trainForecaster } from '../src/engine/forecast';
import { loadTraces } from '../src/forecast-cli';
import { trainForecasterParallel } from '../src/worker/forecast-build-parallel';
import { syntheticHistory } from '../test/support/usage-traces';
import { machineInfo, median, repoRoot, resultsDir, sharedDir, timestamp } from './common';

const QUANTILES = [0.5, 0.9, 0.99];
const SLOT_SECONDS = 180;
const MARGIN = 0.05;
const COMMAND = 'npm run bench:forecast';

interface Check {
  metric: string;
  q: number;
  coverageOk: boolean;
  beatsEveryBaseline: boolean;
  reclaimableVsMax: number;
  coverageVsMax: number;
}

const NOTES = `Changes in this round, each measured on BOTH held-out days (6, and 5 trained on days 0-4):
- Stacking with the baselines (src/engine/forecast/stacking.ts), decided on the calibration day only: per
  metric and quantile the forecast is w_gbt gbt + w_slot slot-quantile + w_max max + a conformal offset, the
  weights on a 0.1 grid of the simplex and the offset chosen together for the lowest calibration pinball
  loss. Where the trees lose to a baseline on the calibration day the forecast moves to that baseline.
- Early stopping on the calibration day: each boosting run keeps the number of trees with the lowest
  calibration pinball loss (patience 15). On these traces it often keeps few or no trees (the node's own
  whole-history q-quantile, the boosting start, is hard to beat on a new day); on the stationary synthetic
  traces it keeps most of them.
- Stacking and early stopping together (same features, bins, seed): pinball below every baseline on 10 of
  the 12 (metric, q, day) rows instead of 7; coverage within 1 point on 4 instead of 5.
- No day-of-week feature with under two weeks of history (forecaster.ts defaultFeatures): the held-out
  weekday was seen once in training or never. Day 5 median loss CPU 0.0760 -> 0.0561, memory 0.0235 ->
  0.0186; the other rows within a few percent either way; still 10 of 12.
- Speed: histograms of integer counts (the pinball gradient takes two values, so a bin needs only its rows
  and its rows with y > F: one increment per row and feature instead of two float additions), no
  histograms for children at the depth limit, one random draw per four rows for the subsample, half the
  training rows (a seeded hash picks them: on 3-minute slots of 5-minute samples neighbouring rows are near
  copies; the calibration rows are all kept), 50 trees at learning rate 0.2 instead of 80 at 0.12, early
  stopping. Quality on the hold-outs was the same with all training rows and with 35% of them.

Tried and NOT made the default (options of trainForecaster):
- statsBeforeCalibration: node statistics and start values of the training and calibration rows from the
  history before the calibration day only (the calibration targets no longer in their own statistics):
  8 of 12 rows below every baseline instead of 10 (e.g. CPU q = 0.5 day 6 0.0295 -> 0.0423).
- calibrationDays 2: 8 of 12 instead of 10 (the trees lose a day of training).
- calibration 'refit' (trees retrained on every row, as many as early stopping kept): 10 of 12, but day 5
  median losses worse (CPU 0.091, memory 0.033).
- start 'slot' (boosting from the slot-quantile baseline, the trees learning the correction): 4 of 12.
- Earlier rounds: prefixStats (statistics before each row only) was worse on both days.

Still unmet (see the target tables): on day 5 (a Saturday after a Monday-Friday training week) the
median forecasts lose to the slot-quantile baseline (CPU 0.05614 vs 0.05609, memory 0.0186 vs 0.0178);
coverage within 1 point at q = 0.5 and 0.9 on both days: the forecasts over-cover (57-63% at 0.5, 93-98% at
0.9) - both held-out days are weekend days that run lighter than the calibration day the offsets come from,
and one week of history cannot show a weekly pattern. q = 0.99 covers >= 98% on all four rows with more
reclaimable capacity than the max baseline.`;

async function main(): Promise<number> {
  const { values } = parseArgs({ args: process.argv.slice(2), options: { out: { type: 'string' } } });
  const outDir = values.out === undefined ? undefined : path.resolve(values.out);
  const traces = path.join(sharedDir(), 'data', 'bitbrains-rnd');
  if (!existsSync(traces)) {
    process.stdout.write(`bench:forecast: ${traces} is absent (no ../shared); nothing to do\n`);
    return 0;
  }
  process.stdout.write(`forecast-eval on ${traces} ...\n`);
  const history = loadTraces(traces);
  const report = runForecastEval(history, { slotSeconds: SLOT_SECONDS, quantiles: QUANTILES, margin: MARGIN });
  process.stdout.write(`${describeEval(report)}\n`);
  const second = runForecastEval(history, { slotSeconds: SLOT_SECONDS, quantiles: QUANTILES, margin: MARGIN, testDay: report.testDay - 1 });
  process.stdout.write(`${describeEval(second)}\n`);

  const timing = await trainingTimes();
  const checks = targetChecks(report);
  const secondChecks = targetChecks(second);
  const date = timestamp();
  const results = { format: 'fallow.bench-forecast/v2', date, command: COMMAND, machine: machineInfo(), gbt: DEFAULT_GBT, rowFraction: DEFAULT_ROW_FRACTION, report, timing, checks, second, secondChecks };
  const jsonDir = outDir ?? resultsDir();
  const mdFile = path.join(outDir ?? path.join(repoRoot(), 'bench'), 'FORECAST.md');
  mkdirSync(jsonDir, { recursive: true });
  const file = path.join(jsonDir, `forecast-${date.slice(0, 8)}.json`);
  writeFileSync(file, JSON.stringify(results, null, 1) + '\n');
  writeFileSync(mdFile, markdown(report, timing, checks, second, secondChecks, path.relative(repoRoot(), file)));
  process.stdout.write(`${renderEvalTable(report)}\n\nwrote ${file} and ${mdFile}\n`);
  return 0;
}

/** Median wall time of trainForecaster on 100 synthetic nodes x 7 days x {cpu, ram}, 1 and 3 quantiles. */
async function trainingTimes() {
  const history = syntheticHistory({ nodes: 100, days: 7, periodSeconds: 300, seed: 1 });
  const time = async (quantiles: number[], parallel: boolean) => {
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      if (parallel) await trainForecasterParallel(history, { slotSeconds: SLOT_SECONDS, quantiles });
      else trainForecaster(history, { slotSeconds: SLOT_SECONDS, quantiles });
      runs.push(performance.now() - t0);
    }
    process.stdout.write(`training ${quantiles.length} quantile(s)${parallel ? ' (worker threads)' : ''}: ${runs.map((r) => (r / 1000).toFixed(2)).join(', ')} s\n`);
    return { quantiles, parallel, runsMs: runs.map(Math.round), medianMs: Math.round(median(runs)!) };
  };
  const rows = [await time([0.99], false), await time(QUANTILES, false), await time([0.99], true), await time(QUANTILES, true)];
  return { nodes: 100, days: 7, periodSeconds: 300, slotSeconds: SLOT_SECONDS, metrics: ['cpu', 'ram'], cpus: availableParallelism(), rows };
}

function targetChecks(r: EvalReport): Check[] {
  const out: Check[] = [];
  for (const metric of r.metrics)
    for (const q of r.quantiles) {
      const rows = r.rows.filter((x) => x.metric === metric && x.q === q);
      const gbt = rows.find((x) => x.model === 'gbt')!;
      const max = rows.find((x) => x.model === 'max')!;
      out.push({
        metric,
        q,
        coverageOk: q >= 0.99 ? gbt.coverage >= 0.98 : Math.abs(gbt.coverage - q) <= 0.01,
        beatsEveryBaseline: rows.every((x) => x.model === 'gbt' || gbt.pinball < x.pinball),
        reclaimableVsMax: gbt.reclaimable - max.reclaimable,
        coverageVsMax: gbt.coverage - max.coverage,
      });
    }
  return out;
}

function checkTable(checks: Check[]): string {
  const pts = (x: number) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}`;
  return `| metric | q | coverage within 1 pt (>= 98% at 0.99) | pinball below every baseline | reclaimable vs max (pts) | coverage vs max (pts) |
|---|---|---|---|---|---|
${checks.map((c) => `| ${c.metric} | ${c.q} | ${c.coverageOk ? 'yes' : 'no'} | ${c.beatsEveryBaseline ? 'yes' : 'no'} | ${pts(c.reclaimableVsMax)} | ${pts(c.coverageVsMax)} |`).join('\n')}`;
}

function markdown(r: EvalReport, timing: Awaited<ReturnType<typeof trainingTimes>>, checks: Check[], r2: EvalReport, checks2: Check[], file: string): string {
  const s = (ms: number) => (ms / 1000).toFixed(2);
  return `# Forecast benchmark

Generated by \`${COMMAND}\` (bench/forecast.ts); raw numbers in \`${file}\`. Do not edit by hand.

## Hold-out on Bitbrains Rnd

${describeEval(r)}. Forecast window: the 480 slots of the held-out day, from the end of training.
Scores (src/engine/forecast/evaluate.ts): pinball = mean quantile loss (bold: lowest of the four models);
coverage = share of slots with actual <= forecast; reclaimable = mean 1 - forecast; violations = share of
slots with actual > forecast + margin (the node would be over capacity if ephemeral work used all of
1 - forecast - margin); QoS triggers = actual > forecast + margin / 2 (the controllers act there).

${renderEvalTable(r)}

## Targets (held-out day ${r.testDay})

${checkTable(checks)}

## Second hold-out: day ${r2.testDay}

${describeEval(r2)}.

${renderEvalTable(r2)}

${checkTable(checks2)}

## Notes

${NOTES}

## Training time

${timing.nodes} synthetic nodes (test/support/usage-traces.ts) x ${timing.days} days of ${timing.periodSeconds / 60}-minute samples x cpu and ram,
${timing.slotSeconds}-s slots (the issue's case: 100 nodes x 7 days x 2 metrics, at the default q = 0.99 and at three quantiles),
defaults ${JSON.stringify(DEFAULT_GBT)}, ${DEFAULT_ROW_FRACTION} of the training rows, 255 bins, split-conformal calibration with
early stopping and stacking; wall time of the whole training (resampling, features, binning, boosting, calibration), median of 3 runs on this machine:

| quantiles | models | executor | median | runs |
|---|---|---|---|---|
${timing.rows.map((t) => `| ${t.quantiles.join(', ')} | ${2 * t.quantiles.length} | ${t.parallel ? `worker threads (${timing.cpus} CPUs)` : 'one thread'} | ${s(t.medianMs)} s | ${t.runsMs.map(s).join(', ')} |`).join('\n')}
`;
}

main().then((code) => process.exit(code));
