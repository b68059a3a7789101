/**
 * The sweep's report (bench/simulate/sweep-report.ts) on handmade rows: the ordering shares count only the
 * configurations where both approaches finished, every reversal and every missed Salamander target gets
 * its evidence line, and the map output ratio is SWIM's shuffle over input bytes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { renderEvidence, renderSweep } from '../../bench/simulate/sweep-report';
import type { SweepRow } from '../../bench/simulate/sweep-row';
import { swimShuffleRatio } from '../../bench/simulate/experiment';
import { withTempDir } from '../support/fixtures';

const evidence = { killsByHost: [], remoteByHost: [], stagingSeconds: 0, remoteReadGB: 0, shuffleGB: 1, shuffleMedianSeconds: 10, shuffleMaxSeconds: 20, reduceNodes: 2 };

function row(seed: number, approach: string, minutes: number | null, extra: Partial<SweepRow> = {}): SweepRow {
  const s = minutes === null ? null : minutes * 60;
  return {
    dc: 'univ', chunkMB: 256, margin: 0.05, seed, approach, accepted: minutes !== null, finished: minutes !== null,
    executionSeconds: s, computeSeconds: s === null ? null : s / 2, stagingSeconds: s === null ? 0 : s / 2,
    relaunchedTaskPct: 0, remoteTaskPct: 0, relaunches: 0, stalledTasks: 0, events: 1, simMs: 1, solveMs: null, evidence, ...extra,
  };
}

const result = (rows: SweepRow[]) => ({
  date: '2026-11-25T00:00:00Z', command: 'sweep', elapsedSeconds: 1,
  setup: { approaches: ['hadoop', 'cuckoo', 'sal-ls'], margins: [0.05], seeds: [1, 2, 3], mapOutputRatio: { 256: 0.825 }, budgetMs: 1000, workers: 1 },
  rows,
});

describe('sweep report', () => {
  // Seed 1: sal 100 < cuckoo 200 < hadoop 300 (both orderings hold). Seed 2: sal 250 > cuckoo 200, and
  // cuckoo 200 < hadoop 150 fails; sal relaunches 2 %. Seed 3: cuckoo rejects (not comparable).
  const rows = [
    row(1, 'hadoop', 300), row(1, 'cuckoo', 200), row(1, 'sal-ls', 100),
    row(2, 'hadoop', 150), row(2, 'cuckoo', 200), row(2, 'sal-ls', 250, { relaunchedTaskPct: 2 }),
    row(3, 'hadoop', 150), row(3, 'cuckoo', null), row(3, 'sal-ls', 90),
  ];

  test('orderings hold in the share of comparable configurations; rejections are counted apart', () => {
    const md = renderSweep(result(rows), 'x.json');
    const all = md.split('\n').find((l) => l.startsWith('| all |') && l.includes('rejected or unfinished'))!;
    assert.match(all, /\| 50% \(1\/2\) \[50% \(1\/2\)\]; cuckoo rejected or unfinished 1 \| 50% \(1\/2\) \[50% \(1\/2\)\]; cuckoo rejected or unfinished 1 \| 67% \(2\/3\) \|/);
  });

  test('the reversed configuration and the missed target get their evidence line, the others none', () => {
    const md = renderSweep(result(rows), 'x.json');
    assert.match(md, /\*\*univ\/256 sm 5% seed 2\*\* not faster than cuckoo \(\+50\.0 min: staging \+25\.0, cluster \+25\.0\); relaunches >= 1 %/);
    assert.doesNotMatch(md, /\*\*univ\/256 sm 5% seed 1\*\*/);
    assert.doesNotMatch(md, /\*\*univ\/256 sm 5% seed 3\*\*/);
    assert.match(renderEvidence(result(rows), 'x.json'), /## Cuckoo not faster than Hadoop \(1\)\n\n- \*\*univ\/256 sm 5% seed 2\*\*/);
  });

  test("a Salamander run that wins only through staging is listed with where its time went", () => {
    // sal 100 min (80 staging + 20 on the cluster) vs cuckoo 150 (140 + 10): faster overall, slower on the cluster.
    const cluster = [row(1, 'hadoop', 300), row(1, 'cuckoo', 150, { stagingSeconds: 140 * 60, computeSeconds: 10 * 60 }), row(1, 'sal-ls', 100, { stagingSeconds: 80 * 60, computeSeconds: 20 * 60 })];
    assert.match(renderSweep(result(cluster), 'x.json'), /\*\*univ\/256 sm 5% seed 1\*\* longer on the cluster than cuckoo \(-50\.0 min: staging -60\.0, cluster \+10\.0\): sal-ls 100\.0 min/);
  });

  test('distributions: median with the 10th and 90th percentiles over the finished runs', () => {
    const md = renderSweep(result(rows), 'x.json');
    // sal-ls execution times 90, 100, 250 min: median 100, p10 = 90 + 0.2 x 10 = 92, p90 = 100 + 0.8 x 150 = 220.
    assert.match(md, /\| univ\/256 \| 150\.0 \(150\.0–270\.0\) \| 200\.0 \(200\.0–200\.0\) rej 1 \| 100\.0 \(92\.0–220\.0\) \|/);
  });

  test('map output ratio: total shuffle bytes over total input bytes of the jobs of at least one chunk', () =>
    withTempDir((dir, write) => {
      const MB = 2 ** 20;
      // job3 reads less than a 128 MB chunk: left out. (100 + 50) / (200 + 300) = 0.3.
      const file = write('swim.tsv', [`job1\t0\t0\t${200 * MB}\t${100 * MB}\t0`, `job2\t0\t0\t${300 * MB}\t${50 * MB}\t0`, `job3\t0\t0\t${10 * MB}\t${999 * MB}\t0`].join('\n'));
      assert.equal(swimShuffleRatio(file, 128), 0.3);
    }));

  describe('planned against realised (issue 38)', () => {
    // Time on the cluster is half the execution time in row(): sal-ls's realised 50, 60, 70 min against planned
    // 50, 50, 50 min: ratios 1.00, 1.20, 1.40; on the forecast 50, 55, 57.5: 1.00, 1.10, 1.15.
    const planned = (minutes: number, onForecast: number | null) => ({ planned: { seconds: minutes * 60, transfers: 'priced', onForecastSeconds: onForecast === null ? null : onForecast * 60, onForecastRelaunchedTaskPct: 0 } });
    const rows = [
      row(1, 'hadoop', 100), row(1, 'sal-ls', 100, planned(50, 50)),
      row(2, 'hadoop', 100), row(2, 'sal-ls', 120, planned(50, 55)),
      row(3, 'hadoop', 100), row(3, 'sal-ls', 140, planned(50, 57.5)),
      // The plan rejected the job: no planned makespan, not counted.
      row(4, 'hadoop', 100), row(4, 'sal-ls', null),
    ];
    const md = renderSweep({ ...result(rows), setup: { ...result(rows).setup, approaches: ['hadoop', 'sal-ls'], seeds: [1, 2, 3, 4] } }, 'x.json');

    test('realised over planned: min / p10 / median / p90 / max and the share within 15 %, against the next day and on the forecast', () => {
      assert.match(md, /### Planned against realised \(issue 38\)/);
      // p10 = 1 + 0.2 x 0.2 = 1.04, p90 = 1.2 + 0.8 x 0.2 = 1.36; on the forecast p10 1.02, p90 1.14; 1.15 is within.
      assert.match(md, /\| sal-ls \(priced\) \| univ\/256 \(rejected by the plan: 1\) \| 1\.00 \/ 1\.04 \/ 1\.20 \/ 1\.36 \/ 1\.40 \| 33% \(1\/3\) \| 1\.00 \/ 1\.02 \/ 1\.10 \/ 1\.14 \/ 1\.15 \| 100% \(3\/3\) \|/);
    });

    test('each plan against Hadoop, configuration by configuration', () => {
      // 50, 60, 70 min against Hadoop's 50: 1.00, 1.20, 1.40; never shorter.
      assert.match(md, /\| all \| 1\.20 \(1\.04–1\.36\); shorter 0\/3 \|/);
    });

    test('results without planned makespans (before 2026-11-28) have no such section', () => {
      assert.doesNotMatch(renderSweep(result([row(1, 'hadoop', 300), row(1, 'sal-ls', 100)]), 'x.json'), /Planned against realised/);
    });
  });
});
