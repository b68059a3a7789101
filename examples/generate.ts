/**
 * Regenerates the generated files of examples/ (the API bodies of the walk-through are written by hand):
 *   npm run examples      (= npm run build && node dist/examples/generate.js)
 * Deterministic: the same files on every run, which test/engine/examples.test.ts checks against the
 * committed ones. Everything comes from the project's own generators (harness/), nothing from ../shared.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { InstanceDoc } from '../src/engine/model/types';
import { Random } from '../src/engine/random';
import { ephemeralInstance } from '../harness/ephemeral-instance';
import { usageCsv, usageSamples } from '../harness/usage-fixtures';
import { syntheticHistory } from '../harness/usage-traces';

/** 4 nodes, 4 MapReduce jobs, 8 hours of 5-minute slots (96): solves in a second, simulates in less. */
export function smallInstance(): InstanceDoc {
  return { ...ephemeralInstance({ nodes: 4, jobs: 4, slots: 96, seed: 1 }), name: 'example-small' };
}

/**
 * About 4,500 tasks on 10 nodes over 8 hours, tight: `ls` schedules every task only after several seconds
 * and then keeps shortening the makespan towards the bound, so a solve cancelled a few seconds in
 * (DELETE /v1/solves/{id}) ends with its best plan so far, visibly short of the last word.
 */
export function largeInstance(): InstanceDoc {
  return { ...ephemeralInstance({ nodes: 10, jobs: 60, maxMaps: 120, slots: 96, seed: 7 }), name: 'example-large' };
}

/**
 * What the regular customers of the small instance really used: its forecast usage moved by a slow
 * wave and noise, clamped to [0, 1] (a forecast is never exact; the simulator replays the plan on this).
 */
export function actualUsage(inst: InstanceDoc): Record<string, Record<string, number[]>> {
  const rng = new Random(2);
  const out: Record<string, Record<string, number[]>> = {};
  for (const [node, metrics] of Object.entries(inst.usage ?? {})) {
    out[node] = {};
    for (const [metric, series] of Object.entries(metrics)) {
      const phase = 2 * Math.PI * rng.next();
      out[node][metric] = series.map((u, t) => {
        const v = u + 0.12 * Math.sin(phase + (2 * Math.PI * t) / 32) + 0.06 * (rng.next() - 0.5);
        return Math.round(Math.min(1, Math.max(0, v)) * 1000) / 1000;
      });
    }
  }
  return out;
}

/** Three days of 5-minute samples of the small instance's nodes, as monitoring exports them. */
export function usageHistoryCsv(inst: InstanceDoc): string {
  const history = syntheticHistory({ nodes: inst.nodes.length, days: 3, periodSeconds: 300, seed: 5 });
  const renamed = Object.fromEntries(Object.values(history).map((metrics, k) => [inst.nodes[k].id, metrics]));
  return usageCsv(usageSamples(renamed));
}

/** File name in examples/ -> its text. */
export function generatedExamples(): Record<string, string> {
  const small = smallInstance();
  const json = (x: unknown) => JSON.stringify(x) + '\n';
  return {
    'instance-small.json': JSON.stringify(small, null, 1) + '\n',
    'instance-large.json': json(largeInstance()),
    'actual-usage.json': json(actualUsage(small)),
    'usage-history.csv': usageHistoryCsv(small),
  };
}

if (require.main === module) {
  // dist/examples/generate.js -> examples/
  const dir = path.resolve(__dirname, '..', '..', 'examples');
  for (const [name, text] of Object.entries(generatedExamples())) {
    writeFileSync(path.join(dir, name), text);
    process.stdout.write(`wrote examples/${name} (${text.length} bytes)\n`);
  }
}
