/**
 * Builds bench/RESULTS.md from the results files bench/results/*.json (or the files given):
 *   node dist/bench/report.js [FILE.json ...] [--out bench/RESULTS.md]
 *   npm run bench -- --report-only
 * The rendering is bench/solve/results-report.ts.
 */
import { command, runEntry } from './lib/cli';
import { writeReport } from './solve/results-report';

const COMMAND = command({
  name: 'bench/report',
  usage: 'usage: node dist/bench/report.js [RESULTS.json ...] [--out bench/RESULTS.md]',
  positionals: true,
  options: { out: { kind: 'string', arg: 'FILE', help: 'where the report goes (default bench/RESULTS.md)' } },
});

if (require.main === module)
  runEntry(COMMAND, ({ values, positionals }) => {
    process.stderr.write(`wrote ${writeReport(positionals, values.out)}\n`);
  });
