/**
 * Forecast benchmark (issue 5): `forecast-eval` on the Bitbrains Rnd traces (../shared/data/bitbrains-rnd:
 * 80 VMs, 7 days of 5-minute CPU and memory samples) - train on days 0-5, hold out day 6 - at q = 0.5,
 * 0.9, 0.99 on 180-s slots with a 5% safety margin, and again holding out day 5 (trained on days 0-4) so
 * that no choice rests on one day; plus the training time for 100 nodes x 7 days of 5-minute samples x cpu
 * and ram (synthetic traces from test/support/usage-traces.ts, median of 3 runs), in this thread and with
 * the 2 x |quantiles| boosting runs on worker threads (src/worker/forecast-build-parallel.ts).
 *
 *   npm run bench:forecast            (= npm run build && node dist/bench/forecast.js)
 *
 * Writes bench/results/forecast-<date>.json and bench/FORECAST.md. Without ../shared it says so, exits 0.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import * as path from 'node:path';
import { DEFAULT_GBT, describeEval, EvalReport, renderEvalTable, runForecastEval, trainForecaster } from '../src/engine/forecast';
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

const NOTES = `Changes in this round, each measured on BOTH held-out days (6, and 5 trained on days 0-4) before
being kept: 255 bins per feature instead of 64 (finer quantile edges where values concentrate; memory at
q = 0.5 on day 6 went 0.0224 -> 0.0131, no cost in time); same-slot median and p90 features (the
slot-quantile baseline as input; roughly neutral: better on some rows, worse on others).

Split-conformal calibration is now the default (trainForecaster calibration: 'split'): the last training
day is held out of the trees, and per metric and quantile the ceil((n + 1) q)-th smallest residual of
its rows is added to every forecast. Measured with the same features and bins, without calibration
('none') -> 'split', over the 12 (metric, q, day) rows of the two hold-outs: coverage target met 4 -> 7,
q = 0.99 at >= 98% 3 -> 4 of 4, pinball below every baseline 9 -> 7, reclaimable >= max at the same or
better coverage on every 0.99 row either way; training is faster (one day fewer of rows). Trade-off
against 'refit' (same offsets, trees retrained on every row): refit learns from the latest day but takes
about twice as long and its offset was measured on a different model; in an earlier trial on these days it
was not better, so it stays an option.

Tried and NOT made the default (options of trainForecaster):
- prefixStats: node statistics and start values from the history before each row only (no training row
  sees statistics that include its own target). Worse on both days (e.g. CPU q = 0.5 day 6, uncalibrated,
  0.0357 -> 0.0548): early rows see statistics of 1-2 days where forecasts see 6, a larger mismatch than
  the in-sample leak of one target among ~2000 slots per node. Whole-history statistics stay the default.
- start: 'slot' (boost from the slot-quantile baseline): won memory at q = 0.5 on day 6 (0.0115 vs the
  baseline's 0.0128) but lost CPU at every quantile on both days and memory at 0.99 on day 5.

Still unmet (see the tables): pinball at q = 0.5 below the slot-quantile baseline (memory on both days,
CPU on day 5) - the median model does not beat a 5-6-day same-slot median on these traces, calibrated
or not; coverage within 1 point at q = 0.5 / 0.9 on day 5 (a Saturday after a Mon-Fri training week:
the calibration day's errors do not carry over); see the target tables for the exact rows. Training 3
quantiles in one thread takes over 10 s on this machine; on worker threads (the 6 boosting runs in
parallel, src/worker/forecast-build-parallel.ts) it is under 10 s.`;

async function main(): Promise<number> {
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
  const results = { format: 'fallow.bench-forecast/v2', date, command: COMMAND, machine: machineInfo(), gbt: DEFAULT_GBT, report, timing, checks, second, secondChecks };
  mkdirSync(resultsDir(), { recursive: true });
  const file = path.join(resultsDir(), `forecast-${date.slice(0, 8)}.json`);
  writeFileSync(file, JSON.stringify(results, null, 1) + '\n');
  writeFileSync(path.join(repoRoot(), 'bench', 'FORECAST.md'), markdown(report, timing, checks, second, secondChecks, path.relative(repoRoot(), file)));
  process.stdout.write(`${renderEvalTable(report)}\n\nwrote ${file} and bench/FORECAST.md\n`);
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
${timing.slotSeconds}-s slots, defaults ${JSON.stringify(DEFAULT_GBT)}, 255 bins, split-conformal calibration; median of 3 runs on this machine:

| quantiles | models | executor | median | runs |
|---|---|---|---|---|
${timing.rows.map((t) => `| ${t.quantiles.join(', ')} | ${2 * t.quantiles.length} | ${t.parallel ? `worker threads (${timing.cpus} CPUs)` : 'one thread'} | ${s(t.medianMs)} s | ${t.runsMs.map(s).join(', ')} |`).join('\n')}
`;
}

main().then((code) => process.exit(code));
