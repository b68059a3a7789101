/** Text rendering of a hold-out experiment: one markdown table (readable as plain text too). */
import { EvalReport } from './experiment';

const pct = (x: number) => (Number.isNaN(x) ? '-' : (100 * x).toFixed(1));

export function renderEvalTable(r: EvalReport): string {
  const lines = [
    `| metric | q | model | pinball | coverage % | ties % | reclaimable % | violations % (margin ${pct(r.margin)}%) | QoS triggers % | slots |`,
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const metric of r.metrics)
    for (const q of r.quantiles) {
      const rows = r.rows.filter((x) => x.metric === metric && x.q === q);
      const best = Math.min(...rows.map((x) => x.pinball));
      for (const x of rows) {
        const loss = x.pinball.toFixed(5);
        lines.push(
          `| ${metric} | ${q} | ${x.model} | ${x.pinball === best ? `**${loss}**` : loss} | ${pct(x.coverage)} | ${pct(x.ties)} | ${pct(x.reclaimable)} | ${pct(x.marginViolation)} | ${pct(x.qosTrigger)} | ${x.n} |`,
        );
      }
    }
  return lines.join('\n');
}

export function describeEval(r: EvalReport): string {
  const day = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);
  return (
    `${r.nodes} nodes, metrics ${r.metrics.join(', ')}, ${r.slotSeconds}-s slots; trained on ${r.trainDays} day(s) ` +
    `${day(r.trainStart)}..${day(r.testStart - 1)}, scored on day ${r.testDay} (${day(r.testStart)}); ` +
    `GBT training ${Number.isNaN(r.trainMs) ? '-' : (r.trainMs / 1000).toFixed(2) + ' s'}`
  );
}

/** The GBT raised to the history maximum's coverage (experiment.ts MatchedRow); empty without both models. */
export function renderMatchedTable(r: EvalReport): string {
  if (r.matched.length === 0) return '';
  const pct2 = (x: number) => (Number.isNaN(x) ? '-' : (100 * x).toFixed(2));
  const lines = [
    '| metric | q | max: coverage % | max: reclaimable % | GBT headroom | GBT raised: coverage % | GBT raised: reclaimable % | reclaimable vs max (pts) |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const m of r.matched) {
    const gain = 100 * (m.reclaimable - m.maxReclaimable);
    lines.push(
      `| ${m.metric} | ${m.q} | ${pct2(m.maxCoverage)} | ${pct(m.maxReclaimable)} | ${m.reached ? m.headroom.toFixed(2) : 'not reached'} | ${pct2(m.coverage)} | ${pct(m.reclaimable)} | ${gain >= 0 ? '+' : ''}${gain.toFixed(1)} |`,
    );
  }
  return lines.join('\n');
}
