/**
 * POSUM variants against the same members (issue 24): each workload's 16 members run once, then POSUM once per
 * variant, so that a change to the portfolio is judged on the two targets (within 5% of the best member,
 * not worse than the median member) over a seed range it was not tuned on. Prints one line per variant; writes
 * nothing. Variants are named changes of the portfolio's parameters (`rebuilt-echo`: the defaults before the
 * replayed look-ahead; `replay-600-periodic`: those of the morning of 2026-11-27), and `oracle-usage`: the look-ahead sees the actual load instead of the forecast (a
 * diagnostic: how much of the gap the forecast explains).
 *
 *   node dist/bench/posum-variants.js [--first-seed 41] [--workloads 20] [--variants as-is,oracle-usage,...]
 */
import { loadInstance } from '../src/engine/model/model';
import { MEMBERS, PortfolioParams } from '../src/engine/policies/posum/params';
import { portfolioParams, simulatePolicy } from '../src/engine/simulation';
import { quantile } from '../src/engine/forecast/quantile';
import { command, EntryArgs, nothingToRun, runEntry, UsageError } from './lib/cli';
import { posumInputs, WEIGHTS, workload } from './posum/workload';

type Variant = { params: Partial<PortfolioParams>; oracle?: boolean };
const VARIANTS: Record<string, Variant> = {
  'as-is': { params: {} },
  'oracle-usage': { params: {}, oracle: true },
  'periodic-only': { params: { decideOnArrival: false } },
  'look-ahead-600': { params: { lookAheadSeconds: 600 } },
  'look-ahead-3600': { params: { lookAheadSeconds: 3600 } },
  // The defaults of the morning of 2026-11-27: a 600-s replayed look-ahead, deciding every period only.
  'replay-600-periodic': { params: { lookAheadSeconds: 600, decideOnArrival: false } },
  'echo-arrivals': { params: { echoArrivals: true } },
  // The defaults before the replay (2026-11-25): rebuilt, 600 s, echoed arrivals, every period only.
  'rebuilt-echo': { params: { lookAheadMode: 'rebuild', echoArrivals: true, decideOnArrival: false } },
  'rebuilt': { params: { lookAheadMode: 'rebuild' } },
  'period-60': { params: { periodSeconds: 60 } },
  'rebuilt-echo-with-ls': { params: { lookAheadMode: 'rebuild', echoArrivals: true, lsMember: true } },
};

const COMMAND = command({
  name: 'bench:posum-variants',
  usage: 'usage: npm run bench:posum-variants -- [options]     (prints its table, writes nothing)',
  options: {
    'first-seed': { kind: 'integer', default: 41, arg: 'N', help: 'the first workload seed (default 41)' },
    workloads: { kind: 'integer', default: 20, arg: 'N', help: 'uniform and bursty workloads each (default 20)' },
    variants: { kind: 'string', default: Object.keys(VARIANTS).join(','), arg: 'V[,V]', help: `the variants to judge (default all: ${Object.keys(VARIANTS).join(', ')})` },
  },
});

function main({ values }: EntryArgs<typeof COMMAND.options>): number {
  const inputs = posumInputs();
  if (typeof inputs === 'string') return nothingToRun('bench:posum-variants', inputs);
  const names = values.variants.split(',');
  const unknown = names.filter((n) => !VARIANTS[n]);
  if (unknown.length) throw new UsageError(`unknown variant ${unknown.join(', ')} (one of ${Object.keys(VARIANTS).join(', ')})`);
  const first = values['first-seed'];
  const count = values.workloads;
  const tally = new Map(names.map((n) => [n, { within5: 0, notWorseThanMedian: 0, ratios: [] as number[] }]));
  for (const kind of ['uniform', 'bursty'] as const)
    for (let s = first; s < first + count; s++) {
      const w = workload(inputs.trace, inputs.traces, kind, s);
      const model = loadInstance(w.doc);
      const fcs = MEMBERS.map((m) => simulatePolicy(model, m.allocation, { qos: 'salamander', seed: 1, actual: w.actual, provision: m.provisioning, posum: portfolioParams({ weights: WEIGHTS }) }).fc!).sort((a, b) => a - b);
      const best = fcs[0];
      const median = fcs[Math.floor(fcs.length / 2)];
      const cells: string[] = [];
      for (const n of names) {
        const v = VARIANTS[n];
        // The oracle's look-ahead reads the instance's usage: give it the actual day (the run is still scored on the actual).
        const m = v.oracle ? loadInstance({ ...w.doc, usage: w.actual }) : model;
        const fc = simulatePolicy(m, 'posum', { qos: 'salamander', seed: 1, actual: w.actual, posum: portfolioParams({ weights: WEIGHTS, ...v.params }) }).fc!;
        const t = tally.get(n)!;
        if (fc <= best * 1.05 + 1e-9) t.within5++;
        if (fc <= median + 1e-9) t.notWorseThanMedian++;
        t.ratios.push(fc / best);
        cells.push(`${n} ${(fc / best).toFixed(3)}`);
      }
      console.log(`${kind}-${s}: best ${best.toFixed(3)} median ${median.toFixed(3)} | ${cells.join(' | ')}`);
    }
  const total = 2 * count;
  console.log(`\nseeds ${first}-${first + count - 1}, ${total} workloads: within 5% of the best member / not worse than the median member / POSUM over the best: median, p90, worst`);
  for (const [n, t] of tally)
    console.log(`${n.padEnd(18)} ${String(t.within5).padStart(3)} / ${String(t.notWorseThanMedian).padStart(3)}   ${quantile(t.ratios, 0.5).toFixed(3)} ${quantile(t.ratios, 0.9).toFixed(3)} ${Math.max(...t.ratios).toFixed(3)}`);
  return 0;
}

if (require.main === module) runEntry(COMMAND, main);
