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
