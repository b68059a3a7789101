/**
 * The rolling-origin part of the forecast benchmark (issue 25, bench/forecast.ts calls it): every Bitbrains
 * VM, every day with MIN_TRAIN_DAYS whole days before it held out in turn (trained on all the days before),
 * scored per VM for the GBT and every baseline (src/engine/forecast/rolling.ts, rolling-summary.ts), once
 * with the builder before issue 25 (calibrationScale 'none': one absolute conformal offset for every VM)
 * and once as it is now, so that the before/after comparison is regenerated with the rest.
 */
import { ForecasterOptions, isMostlyIdle, RollingReport, RollingSummary, rollingOrigin, summariseRolling, UsageHistory, IDLE_RULE, Dist, QuantileSummary, NodeGroupSummary } from '../../src/engine/forecast';

export interface RollingRun {
  label: string;
  gbt: Partial<ForecasterOptions>;
  seconds: number;
  report: RollingReport;
  summary: RollingSummary;
}

/** The builder before the fix, then as it is now (defaults). */
const VARIANTS: { label: string; gbt: Partial<ForecasterOptions> }[] = [
  { label: 'before (one absolute offset)', gbt: { calibrationScale: 'none' } },
  { label: 'now (offset per VM spread)', gbt: {} },
];

export function runRolling(history: UsageHistory, o: { slotSeconds: number; quantiles: number[]; margin: number }): RollingRun[] {
  const idle = new Set(Object.entries(history).filter(([, m]) => m.cpu && isMostlyIdle(m.cpu.v)).map(([node]) => node));
  return VARIANTS.map(({ label, gbt }) => {
    const t0 = performance.now();
    const report = rollingOrigin(history, { ...o, gbt });
    const seconds = (performance.now() - t0) / 1000;
    process.stdout.write(`rolling origin, ${label}: ${report.folds.length} days x ${report.nodes.length} VMs in ${seconds.toFixed(1)} s\n`);
    return { label, gbt, seconds, report, summary: summariseRolling(report, idle) };
  });
}

/**
 * Raw scores of each run: per metric, quantile, model and VM, one pinball loss and one coverage per held-out
 * day (in the order of folds), and per metric and VM the slots scored each day (the same for every model).
 */
export function rollingJson(runs: RollingRun[]) {
  const r6 = (x: number) => Number(x.toPrecision(6));
  return runs.map((r) => {
    const days = r.report.folds.map((f) => f.testDay);
    type PerNode = Record<string, { pinball: number[]; coverage: number[] }>;
    const scores: Record<string, Record<string, Record<string, PerNode>>> = {};
    const slots: Record<string, Record<string, number[]>> = {};
    for (const s of r.report.scores) {
      const d = days.indexOf(s.day);
      const node = (((scores[s.metric] ??= {})[s.q] ??= {})[s.model] ??= {})[s.node] ??= { pinball: [], coverage: [] };
      node.pinball[d] = r6(s.score.pinball);
      node.coverage[d] = r6(s.score.coverage);
      ((slots[s.metric] ??= {})[s.node] ??= [])[d] = s.score.n;
    }
    return {
      label: r.label,
      gbt: r.gbt,
      seconds: Math.round(r.seconds * 10) / 10,
      minTrainDays: r.report.minTrainDays,
      folds: r.report.folds.map((f) => ({ ...f, trainMs: Math.round(f.trainMs) })),
      summary: r.summary,
      slots,
      scores,
    };
  });
}

const f5 = (x: number) => (Number.isNaN(x) ? '-' : x.toFixed(5));
const pct = (x: number) => (Number.isNaN(x) ? '-' : (100 * x).toFixed(0));
const dist5 = (d: Dist) => `${f5(d.p10)} / ${f5(d.median)} / ${f5(d.p90)}`;
const distPct = (d: Dist) => `${pct(d.p10)} / ${pct(d.median)} / ${pct(d.p90)}`;

function groupOf(s: QuantileSummary, idle: boolean): NodeGroupSummary {
  return idle ? s.idle : s.all;
}

/** Per metric and q, before and after: win shares and the GBT's distributions across VMs. */
function winTable(runs: RollingRun[], idle: boolean): string {
  const [before, after] = runs;
  const lines = [
    `| metric | q | VMs | GBT lowest loss: before | now | beats last-day / slot-quantile / max / slot-max (now) | GBT loss > slot-max: before | now | GBT coverage 100%: before | now |`,
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  before.summary.quantiles.forEach((b, i) => {
    const a = after.summary.quantiles[i];
    const gb = groupOf(b, idle);
    const ga = groupOf(a, idle);
    const beats = (['last-day', 'slot-quantile', 'max', 'slot-max'] as const).map((m) => pct(ga.gbtBeats[m])).join(' / ');
    lines.push(
      `| ${b.metric} | ${b.q} | ${ga.nodes} | ${pct(gb.gbtWins)}% | **${pct(ga.gbtWins)}%** | ${beats} % | ${pct(gb.aboveSlotMax)}% | **${pct(ga.aboveSlotMax)}%** | ${pct(gb.fullCoverage)}% | ${pct(ga.fullCoverage)}% |`,
    );
  });
  return lines.join('\n');
}

/** Per metric and q: pinball and coverage distributions across VMs (p10 / median / p90) of every model. */
function distTable(runs: RollingRun[], idle: boolean): string {
  const [before, after] = runs;
  const lines = ['| metric | q | model | pinball p10 / median / p90 | coverage % p10 / median / p90 |', '|---|---|---|---|---|'];
  before.summary.quantiles.forEach((b, i) => {
    const a = after.summary.quantiles[i];
    const gb = groupOf(b, idle).models.find((m) => m.model === 'gbt')!;
    lines.push(`| ${b.metric} | ${b.q} | gbt before | ${dist5(gb.pinball)} | ${distPct(gb.coverage)} |`);
    for (const m of groupOf(a, idle).models) lines.push(`| ${b.metric} | ${b.q} | ${m.model === 'gbt' ? '**gbt now**' : m.model} | ${dist5(m.pinball)} | ${distPct(m.coverage)} |`);
  });
  return lines.join('\n');
}

/** Every VM pooled per held-out day: the GBT before and now against the best of the baselines. */
function dayTable(runs: RollingRun[]): string {
  const [before, after] = runs;
  const lines = ['| day | metric | q | GBT before | GBT now | best baseline | GBT lowest: before | now |', '|---|---|---|---|---|---|---|---|'];
  before.summary.days.forEach((b, i) => {
    const a = after.summary.days[i];
    const best = Math.min(a.pinball['last-day'], a.pinball['slot-quantile'], a.pinball.max);
    lines.push(`| ${b.day} | ${b.metric} | ${b.q} | ${f5(b.pinball.gbt)} | ${f5(a.pinball.gbt)} | ${f5(best)} | ${b.gbtWins ? 'yes' : 'no'} | ${a.gbtWins ? 'yes' : 'no'} |`);
  });
  const count = (r: RollingRun) => r.summary.days.filter((d) => d.gbtWins).length;
  const lost = before.summary.days.filter((b, i) => b.gbtWins && !after.summary.days[i].gbtWins);
  lines.push('', `GBT lowest on ${count(before)} of ${before.summary.days.length} (day, metric, q) rows before, ${count(after)} now; won before and lost now: ${lost.length === 0 ? 'none' : lost.map((d) => `day ${d.day} ${d.metric} q = ${d.q}`).join(', ')}.`);
  return lines.join('\n');
}

export function rollingMarkdown(runs: RollingRun[], nodes: number, file: string): string {
  const after = runs[1];
  const days = after.report.folds.map((f) => f.testDay);
  return `## Rolling origin: every VM, every testable day

Every Bitbrains VM in the shared data (${nodes} VMs of the Rnd set, month 2013-7; the fastStorage set is not in
../shared/data, so it is not covered), every day with at least ${after.report.minTrainDays} whole days before it
(one day for the lag features, one of training rows; from 3 days on the last one calibrates): days ${days.join(', ')}.
For each day the builder trains on all the days before it (one model pooled over every VM, as a forecast build
does), forecasts the day, and each VM is scored per metric and quantile
(src/engine/forecast/rolling.ts); a VM's scores are pooled over its days, then the tables show their spread over
the VMs (rolling-summary.ts). "slot-max" is the same slot's maximum over the past days (the slot-quantile baseline
at q = 1), a reference, not one of the baselines a win must beat. "Mostly idle": CPU median below
${100 * IDLE_RULE.median}% and 99th percentile below ${100 * IDLE_RULE.p99}% over the VM's week (${after.summary.idleNodes.length} VMs:
${after.summary.idleNodes.join(', ')}). Before: the builder with \`calibrationScale: 'none'\` (the one absolute
conformal offset it had); now: the default (offset in units of each VM's spread, see the notes). Raw scores per
VM and day: \`${file}\`. Wall time: ${runs.map((r) => `${r.label} ${r.seconds.toFixed(0)} s`).join(', ')}.

### Share of VMs where the GBT has the lowest pinball loss (all ${after.summary.quantiles[0].all.nodes} VMs)

${winTable(runs, false)}

### Mostly idle VMs (${after.summary.idleNodes.length})

${winTable(runs, true)}

${distTable(runs, true)}

### Distributions across all VMs

${distTable(runs, false)}

### Every VM pooled, per held-out day

${dayTable(runs)}`;
}
