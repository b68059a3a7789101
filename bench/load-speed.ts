/**
 * Not a test: measures how long loadInstance (validation + compilation) takes on the large instance of
 * harness/load-speed.ts, 10,000 tasks x 100 nodes x 1,000 slots, with a usage series for every node and metric.
 *   npm run build && node dist/bench/load-speed.js
 */
import { loadInstance } from '../src/engine/model/model';
import { largeInstance } from '../harness/load-speed';
import { command, runEntry } from './lib/cli';
import { median } from './lib/stats';

const COMMAND = command({ name: 'bench/load-speed', usage: 'usage: node dist/bench/load-speed.js       (after npm run build)', options: {} });

/** Five timed runs after a warm-up (an odd count: the median is one of them). */
function main(): void {
  const inst = largeInstance();
  const text = JSON.stringify(inst);
  const parse: number[] = [];
  const load: number[] = [];
  let model = loadInstance(JSON.parse(text)); // warm-up
  for (let i = 0; i < 5; i++) {
    let t = process.hrtime.bigint();
    const raw = JSON.parse(text);
    parse.push(Number(process.hrtime.bigint() - t) / 1e6);
    t = process.hrtime.bigint();
    model = loadInstance(raw);
    load.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  console.log(
    `instance: ${model.nTasks} tasks x ${model.K} nodes x ${model.T} slots x ${model.M} metrics, ${(text.length / 1e6).toFixed(1)} MB of JSON\n` +
      `JSON.parse:   median ${median(parse)!.toFixed(1)} ms  (${parse.map((x) => x.toFixed(0)).join(', ')})\n` +
      `loadInstance: median ${median(load)!.toFixed(1)} ms  (${load.map((x) => x.toFixed(0)).join(', ')})`,
  );
}


if (require.main === module) runEntry(COMMAND, main);
