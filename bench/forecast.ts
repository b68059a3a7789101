/**
 * Forecast benchmark (issue 5): `forecast-eval` on the Bitbrains Rnd traces (../shared/data/bitbrains-rnd:
 * 80 VMs, 7 days of 5-minute CPU and memory samples) - train on days 0-5, hold out day 6 - at q = 0.5,
 * 0.9, 0.99 on 180-s slots with a 5% safety margin, and again holding out day 5 (trained on days 0-4) so
 * that no choice rests on one day; plus the training time for 100 nodes x 7 days of 5-minute samples x cpu
 * and ram (synthetic traces from harness/usage-traces.ts, median of 3 runs), in this thread and with
 * the 2 x |quantiles| boosting runs on worker threads (src/worker/forecast-build-parallel.ts); and the
 * rolling origin of issue 25 (bench/forecast/rolling.ts): every VM and every testable day, per-VM scores,
 * before and after the per-VM calibration scale.
 *
 *   npm run bench:forecast            (= npm run build && node dist/bench/forecast.js)
 *   node dist/bench/forecast.js --out DIR   (both files into DIR instead: trials that must not touch bench/)
 *
 * Writes bench/results/forecast-<date>.json, bench/results/forecast-rolling-<date>.json (raw per-VM, per-day
 * scores) and bench/FORECAST.md. Reads the traces in place. Without ../shared it says so and exits
 * (bench/lib/cli.ts nothingToRun).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import * as path from 'node:path';
import { DEFAULT_GBT, DEFAULT_ROW_FRACTION, describeEval, EvalReport, renderEvalTable, renderMatchedTable, runForecastEval, trainForecaster } from '../src/engine/forecast';
import { loadTraces } from '../src/cli/forecast';
import { trainForecasterParallel } from '../src/worker/forecast-build-parallel';
import { syntheticHistory } from '../harness/usage-traces';
import { machineInfo, timestamp } from './lib/machine';
import { median } from './lib/stats';
import { command, EntryArgs, nothingToRun, runEntry } from './lib/cli';
import { repoRoot, resultsDir, sharedDir } from './lib/paths';
import { rollingJson, rollingMarkdown, runRolling, RollingRun } from './forecast/rolling';

const QUANTILES = [0.5, 0.9, 0.99];
const SLOT_SECONDS = 180;
const MARGIN = 0.05;
const RUN_COMMAND = 'npm run bench:forecast';

const COMMAND = command({
  name: 'bench:forecast',
  usage: 'usage: npm run bench:forecast -- [options]',
  options: { out: { kind: 'string', arg: 'DIR', help: 'both results files and FORECAST.md into DIR instead (trials that must not touch bench/)' } },
});

interface Check {
  metric: string;
  q: number;
  coverageOk: boolean;
  /** The one-sided reading of the issue's example ("at least 98% at q = 0.99"): coverage >= q - 1 point. */
  coverageAtLeast: boolean;
  beatsEveryBaseline: boolean;
  reclaimableVsMax: number;
  coverageVsMax: number;
  /** At the max baseline's coverage (the GBT raised by the least headroom reaching it that day): reclaimable GBT - max. */
  matchedReclaimableVsMax: number;
}

/** The q = 0.99 GBT with the headroom chosen on the earlier hold-out day, scored on the later one. */
interface Deployed {
  chosenOnDay: number;
  headroom: Record<string, number>;
  report: EvalReport;
}

const ROLLING_NOTES = `Issue 25 measured the builder on every VM and every testable day (the rolling-origin tables above)
and changed its calibration. Diagnosis, from the per-VM scores and the fitted models of each day: early
stopping keeps 0-7 trees at q = 0.9 and 0.99 on most days, so a forecast is the VM's own history q-quantile
(the boosting start value), blended with the baselines by weights chosen on the calibration day, plus ONE
conformal offset per metric and quantile. Weights and offset were chosen together to minimise the pinball
loss of the calibration day pooled over all 80 VMs in fractions of capacity, so the bursty VMs (VMs 55-81
saturate at 100% CPU in their top percent) decided them. At CPU q = 0.9 on days 4 and 5 that choice was 0.9 GBT
+ 0.1 history maximum: for a mostly idle VM with one old spike that adds a tenth of the spike to every slot.
VM 17 on day 4: history maximum 88.7%, own q = 0.9 quantile 1.0%, forecast 9.7% in every slot, while the
day's own maximum was 2.6% and the same-slot maximum averaged 5.1%; VMs 37 and 8 likewise (11.0% and 10.3%).
The fix (src/engine/forecast/forecaster.ts \`calibrationScale\`, default 'node'): normalised split conformal.
Each calibration residual is divided by its VM's own spread (p99 - p50 of its history, at least 0.005), the
offset is the conformal quantile of those, each VM's forecast moves by the offset times its own spread, and the
stacking weights are chosen with those offsets. A VM's shift now follows its own spread, and the cheap way to
cover the bursty VMs is no longer a share of everyone's maximum: on day 4 the weights stay on the GBT alone, the
offset is 0.05 spreads, and VM 17's forecast is 3.6% (VMs 37, 8: 4.4%, 1.7%). Split conformal's coverage
guarantee holds for any scale fixed before the calibration residuals; this one is taken from the VM's whole
history, calibration day included (as the node features are), so it holds as nearly as it did before.
Tried and not kept: dividing the trees' targets by the same spread too (the leaves pool normalised residuals).
More VMs won at q = 0.9 and in memory, but an idle VM's rare spike became a residual of tens of its spreads, and
the leaves it shares with bursty VMs pushed those up: CPU q = 0.99 on day 2 (uncalibrated, two days of history)
went from a win (0.00364 against 0.00424) to a loss (0.00534). A floor of 0.02 instead of 0.005 gave the same
win shares within one VM.
Still over-forecast at q = 0.99 (the "GBT loss > slot-max" column, now): idle VMs whose spikes came early in
the week and did not recur (VM 17 again: its history's 99th percentile on day 4 is 52% CPU, from spikes on days
0-2). There the flat start value, not the calibration, is the cause; a time-of-day start value was measured in
an earlier round and lost on the pooled hold-outs. Days 3 and 4 (Thursday, Friday: heavier than the days before)
are lost by every variant at CPU q = 0.5-0.99. The two rolling runs do the same work; their wall times differ
with the shared machine's load.`;

const NOTES = `This round added headroom (src/engine/forecast/headroom.ts; \`fallow forecast --headroom\`,
\`forecast-eval --headroom\`): a safety offset on the GBT's forecasts that never raises one above the node's
history maximum, and the comparison with the maximum at the maximum's own coverage (the tables above). Why:
the maximum covers 99.9-100% of the held-out slots, so "reclaimable capacity at least as large as the
history-maximum baseline at the same or better coverage" cannot be read off the q = 0.99 rows, which cover
0.4-0.6 points less. At the maximum's coverage the raised q = 0.99 forecast lends 3.4 (CPU) and 6.1 (memory)
points more on day 6, 4.3 and 3.5 on day 5. With the headroom chosen a day ahead (on day 5) it covers 0.01
and 0.03 points less than the maximum on day 6 (4 and 12 of 38,400 slots) and lends 5.1 and 9.0 points more:
a headroom chosen in advance meets the maximum's coverage only as well as the days resemble each other (on
the heavier days 3 and 4 the maximum itself covered only 99.0-99.5% and the matching headroom ranged 0.15-0.89).
The headroom is an option, off by default: a plain q = 0.99 forecast is what Salamander and Cuckoo use.

The round before measured why the forecasts over-cover at q = 0.5 and 0.9 (coverage 57-63% and 93-98%), on the
training days unless it says hold-out. No forecasting change came out of it; the report gained a "ties %"
column (src/engine/forecast/evaluate.ts) that shows how much of the coverage is slots equal to their forecast.
- Ties. The traces hold long constant runs (idle VMs, fixed memory; 5.4% of the CPU samples are exactly 0).
  Early stopping keeps 0-2 trees at q = 0.5 and 0.9 on these traces, so a forecast is mostly the node's own
  whole-history q-quantile - one of its own values - and later values often equal it exactly. On the
  calibration day (day 5, for hold-out day 6) the CPU q = 0.9 forecast covered 95.6% counting actual <=
  forecast and 81.2% counting actual < forecast: the conformal offset sits on the block of zero residuals
  and coverage jumps past q by its size. On hold-out day 6, 14.2% of the CPU slots at q = 0.5 equal their
  forecast; a forecast lower by 1e-9 covers 41.9% instead of 57.6%.
- A "randomised" tie-aware calibration (forecasting a share of the tied slots 1e-6 lower, so the
  calibration day covers exactly q) was built and measured (CPU q = 0.9 day 6 93.0 -> 90.0%, q = 0.5 57.6 ->
  56.8%) and NOT kept: it moves forecasts by a millionth of capacity, so no operator gains or loses any
  capacity; it only moves the coverage figure across the "<=" of its definition.
- The day itself. Held-out coverage follows how heavy the held-out day is against the history, and that
  varies far more than 1 point. The node's own q-quantile of the days before, scored on the next day (days
  1-5, no calibration): CPU q = 0.5 60.8, 60.8, 46.6, 38.4, 47.3%; q = 0.9 90.8, 90.1, 77.6, 75.2, 95.0%
  (Thursday and Friday heavy, the weekend light). Calibrated on the day before, or on the pooled previous
  2-3 days (rolling origin), next-day coverage still missed q by 6-11 points on average over days 2-5, and
  no variant came within 1 point on more than one of those days. Both held-out days are weekend days after
  a working week the training days cannot show.

Earlier rounds (each measured on both held-out days, 6 and 5 trained on days 0-4): stacking with the
baselines on the calibration day (stacking.ts), early stopping on it (patience 15), no day-of-week feature
with under two weeks of history, and speed work (integer count histograms, half the training rows, 50
trees at learning rate 0.2). Tried and not made the default (options of trainForecaster):
statsBeforeCalibration (8 of 12 rows below every baseline instead of 10), calibrationDays 2 (8 of 12),
calibration 'refit' (day 5 median losses worse), start 'slot' (4 of 12), prefixStats.

The issue words the coverage target as "within 1 point of the quantile asked for (e.g. at least 98% at q =
0.99)": the example is one-sided. The target tables show both readings: two-sided (q = 0.99 one-sided, as
the example says) and one-sided for every q (coverage >= q - 1 point, the safety reading: a forecast may
over-cover, costing reclaimable capacity, but not under-cover).

Still unmet (see the target tables): coverage within 1 point at q = 0.5 and 0.9, for the reasons above; on
day 5 the median forecasts lose to the slot-quantile baseline (CPU 0.05614 vs 0.05609, memory 0.0236 vs
0.0178). q = 0.99 covers >= 98% on all four rows with more reclaimable capacity than the max baseline, and
at the maximum's own coverage the raised forecasts lend more than the maximum on every row but CPU q = 0.5,
where only a headroom of 1 (the maximum itself) reaches it.`;

async function main({ values }: EntryArgs<typeof COMMAND.options>): Promise<number> {
  const started = performance.now();
  const outDir = values.out === undefined ? undefined : path.resolve(values.out);
  const traces = path.join(sharedDir(), 'data', 'bitbrains-rnd');
  if (!existsSync(traces)) return nothingToRun('bench:forecast', `${traces} is absent (../shared or $FALLOW_SHARED)`);
  process.stdout.write(`forecast-eval on ${traces} ...\n`);
  const history = loadTraces(traces);
  const report = runForecastEval(history, { slotSeconds: SLOT_SECONDS, quantiles: QUANTILES, margin: MARGIN });
  process.stdout.write(`${describeEval(report)}\n`);
  const second = runForecastEval(history, { slotSeconds: SLOT_SECONDS, quantiles: QUANTILES, margin: MARGIN, testDay: report.testDay - 1 });
  process.stdout.write(`${describeEval(second)}\n`);
  // A headroom an operator could have set in advance: the one that matched the maximum's coverage on the
  // day before (trained on the days before that), applied to the held-out day.
  const headroom = Object.fromEntries(second.matched.filter((m) => m.q === 0.99).map((m) => [m.metric, m.headroom]));
  const deployed: Deployed = {
    chosenOnDay: second.testDay,
    headroom,
    report: runForecastEval(history, { slotSeconds: SLOT_SECONDS, quantiles: [0.99], margin: MARGIN, models: ['gbt', 'max'], headroom }),
  };

  const rolling = runRolling(history, { slotSeconds: SLOT_SECONDS, quantiles: QUANTILES, margin: MARGIN });
  const timing = await trainingTimes();
  const checks = targetChecks(report);
  const secondChecks = targetChecks(second);
  const date = timestamp();
  const results = { format: 'fallow.bench-forecast/v3', date, command: RUN_COMMAND, machine: machineInfo(), gbt: DEFAULT_GBT, rowFraction: DEFAULT_ROW_FRACTION, report, timing, checks, second, secondChecks, deployed };
  const jsonDir = outDir ?? resultsDir();
  const mdFile = path.join(outDir ?? path.join(repoRoot(), 'bench'), 'FORECAST.md');
  mkdirSync(jsonDir, { recursive: true });
  const file = path.join(jsonDir, `forecast-${date.slice(0, 8)}.json`);
  writeFileSync(file, JSON.stringify(results, null, 1) + '\n');
  const rollingFile = path.join(jsonDir, `forecast-rolling-${date.slice(0, 8)}.json`);
  writeFileSync(rollingFile, JSON.stringify({ format: 'fallow.bench-forecast-rolling/v1', date, command: RUN_COMMAND, machine: machineInfo(), traces, runs: rollingJson(rolling) }) + '\n');
  const benchSeconds = (performance.now() - started) / 1000;
  process.stdout.write(`whole bench: ${benchSeconds.toFixed(0)} s\n`);
  writeFileSync(mdFile, markdown(report, timing, checks, second, secondChecks, deployed, path.relative(repoRoot(), file), rolling, path.relative(repoRoot(), rollingFile), date, benchSeconds));
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
        coverageAtLeast: gbt.coverage >= q - 0.01,
        beatsEveryBaseline: rows.every((x) => x.model === 'gbt' || gbt.pinball < x.pinball),
        reclaimableVsMax: gbt.reclaimable - max.reclaimable,
        coverageVsMax: gbt.coverage - max.coverage,
        matchedReclaimableVsMax: matchedGain(r, metric, q),
      });
    }
  return out;
}

/** Reclaimable of the raised GBT minus the max baseline's, at the max's coverage; NaN when not reached. */
function matchedGain(r: EvalReport, metric: string, q: number): number {
  const m = r.matched.find((x) => x.metric === metric && x.q === q);
  return m && m.reached ? m.reclaimable - m.maxReclaimable : NaN;
}

function checkTable(checks: Check[]): string {
  const pts = (x: number) => (Number.isNaN(x) ? 'not reached' : `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}`);
  return `| metric | q | coverage within 1 pt (>= 98% at 0.99) | coverage >= q - 1 pt (one-sided) | pinball below every baseline | reclaimable vs max (pts) | coverage vs max (pts) | reclaimable vs max at max's coverage (pts) |
|---|---|---|---|---|---|---|---|
${checks.map((c) => `| ${c.metric} | ${c.q} | ${c.coverageOk ? 'yes' : 'no'} | ${c.coverageAtLeast ? 'yes' : 'no'} | ${c.beatsEveryBaseline ? 'yes' : 'no'} | ${pts(c.reclaimableVsMax)} | ${pts(c.coverageVsMax)} | ${pts(c.matchedReclaimableVsMax)} |`).join('\n')}`;
}

/** The headroom chosen on the earlier day, scored on the later one, against the max baseline. */
function deployedTable(d: Deployed): string {
  const p2 = (x: number) => (100 * x).toFixed(2);
  const p1 = (x: number) => (100 * x).toFixed(1);
  const rows = d.report.metrics.map((metric) => {
    const gbt = d.report.rows.find((x) => x.model === 'gbt' && x.metric === metric)!;
    const max = d.report.rows.find((x) => x.model === 'max' && x.metric === metric)!;
    const gain = 100 * (gbt.reclaimable - max.reclaimable);
    const cov = 100 * (gbt.coverage - max.coverage);
    return `| ${metric} | ${(d.headroom[metric] ?? 0).toFixed(2)} | ${p2(gbt.coverage)} | ${p1(gbt.reclaimable)} | ${p2(max.coverage)} | ${p1(max.reclaimable)} | ${cov >= 0 ? '+' : ''}${cov.toFixed(2)} | ${gain >= 0 ? '+' : ''}${gain.toFixed(1)} |`;
  });
  return `| metric | headroom (chosen on day ${d.chosenOnDay}) | GBT raised: coverage % | GBT raised: reclaimable % | max: coverage % | max: reclaimable % | coverage vs max (pts) | reclaimable vs max (pts) |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}`;
}

function markdown(
  r: EvalReport,
  timing: Awaited<ReturnType<typeof trainingTimes>>,
  checks: Check[],
  r2: EvalReport,
  checks2: Check[],
  deployed: Deployed,
  file: string,
  rolling: RollingRun[],
  rollingFile: string,
  date: string,
  benchSeconds: number,
): string {
  const s = (ms: number) => (ms / 1000).toFixed(2);
  const m = machineInfo();
  return `# Forecast benchmark

Generated by \`${RUN_COMMAND}\` (bench/forecast.ts) on ${date} UTC, ${m.cpu} (${m.cores} cores, shared; load average
${loadavg()[0].toFixed(1)} when it ended, so wall times are as loaded as that), Node ${m.node}; the whole bench took ${benchSeconds.toFixed(0)} s. Raw numbers in \`${file}\` and \`${rollingFile}\`. Do not edit by hand.
The traces are read in place from ../shared/data/bitbrains-rnd.

## Hold-out on Bitbrains Rnd

${describeEval(r)}. Forecast window: the 480 slots of the held-out day, from the end of training.
Scores (src/engine/forecast/evaluate.ts): pinball = mean quantile loss (bold: lowest of the four models);
coverage = share of slots with actual <= forecast; ties = share with actual = forecast (in the coverage);
reclaimable = mean 1 - forecast; violations = share of
slots with actual > forecast + margin (the node would be over capacity if ephemeral work used all of
1 - forecast - margin); QoS triggers = actual > forecast + margin / 2 (the controllers act there).

${renderEvalTable(r)}

## Targets (held-out day ${r.testDay})

${checkTable(checks)}

## At the history maximum's coverage (held-out day ${r.testDay})

The issue asks for "reclaimable capacity at least as large as the history-maximum baseline at the same or
better coverage". The maximum covers nearly every slot, so the comparison is made at its coverage: each
GBT forecast is raised by a headroom, never above the node's history maximum (src/engine/forecast/headroom.ts,
\`--headroom\` of \`fallow forecast\`), and the least headroom (steps of 0.01) whose coverage reaches the
maximum's is taken. Chosen on the scored day, this compares what the two forecasts can offer at one safety
level:

${renderMatchedTable(r)}

Chosen in advance instead (what an operator can deploy): the headroom that matched the maximum's coverage on
day ${deployed.chosenOnDay} (trained on the days before it), applied to the q = 0.99 forecast of day ${r.testDay}:

${deployedTable(deployed)}

## Second hold-out: day ${r2.testDay}

${describeEval(r2)}.

${renderEvalTable(r2)}

${checkTable(checks2)}

At the history maximum's coverage on day ${r2.testDay}:

${renderMatchedTable(r2)}

${rollingMarkdown(rolling, rolling[1].report.nodes.length, rollingFile)}

## Notes

${ROLLING_NOTES}

Earlier rounds (their numbers as measured then, before issue 25's calibration change):

${NOTES}

## Training time

${timing.nodes} synthetic nodes (harness/usage-traces.ts) x ${timing.days} days of ${timing.periodSeconds / 60}-minute samples x cpu and ram,
${timing.slotSeconds}-s slots (the issue's case: 100 nodes x 7 days x 2 metrics, at the default q = 0.99 and at three quantiles),
defaults ${JSON.stringify(DEFAULT_GBT)}, ${DEFAULT_ROW_FRACTION} of the training rows, 255 bins, split-conformal calibration with
early stopping and stacking; wall time of the whole training (resampling, features, binning, boosting, calibration), median of 3 runs on this machine:

| quantiles | models | executor | median | runs |
|---|---|---|---|---|
${timing.rows.map((t) => `| ${t.quantiles.join(', ')} | ${2 * t.quantiles.length} | ${t.parallel ? `worker threads (${timing.cpus} CPUs)` : 'one thread'} | ${s(t.medianMs)} s | ${t.runsMs.map(s).join(', ')} |`).join('\n')}
`;
}

if (require.main === module) runEntry(COMMAND, main);
