/**
 * The dependency rules of .dependency-cruiser.cjs hold on the TypeScript sources (src, bench, test, harness),
 * and they can fail: the same rules cruise a small known-bad layout written to a temporary directory and must
 * report exactly its bad edges, and none of its allowed ones.
 *
 * dependency-cruiser is ESM only (its package exports have no `require` condition) and tsc compiles this file to
 * CommonJS, where `import()` would become `require()`: it is loaded with a real dynamic import instead.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';

/** This file compiles to dist/test/architecture.test.js. */
const ROOT = path.resolve(__dirname, '../..');
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');

interface Violation {
  type: string;
  from: string;
  to: string;
  rule: { name: string; severity: string };
  cycle?: { name: string }[];
}
interface CruiseResult {
  summary: { violations: Violation[]; totalCruised: number };
}
interface CruiseOptions {
  baseDir?: string;
  tsConfig?: { fileName?: string };
  [key: string]: unknown;
}

const dynamicImport = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<any>;

/** Cruises `paths` (relative to `baseDir`) with the repository's rules and that directory's tsconfig.json. */
async function cruise(baseDir: string, paths: string[]): Promise<CruiseResult> {
  const [{ cruise }, { default: extractDepcruiseOptions }, { default: extractTSConfig }] = await Promise.all([
    dynamicImport('dependency-cruiser'),
    dynamicImport('dependency-cruiser/config-utl/extract-depcruise-options'),
    dynamicImport('dependency-cruiser/config-utl/extract-ts-config'),
  ]);
  const tsConfigFile = path.join(baseDir, 'tsconfig.json');
  const options: CruiseOptions = await extractDepcruiseOptions(CONFIG);
  options.baseDir = baseDir;
  options.tsConfig = { ...options.tsConfig, fileName: tsConfigFile };
  const { output } = await cruise(paths, options, {}, { tsConfig: extractTSConfig(tsConfigFile) });
  return (typeof output === 'string' ? JSON.parse(output) : output) as CruiseResult;
}

function describeViolation(v: Violation): string {
  const cycle = v.cycle ? `  (cycle: ${[v.from, ...v.cycle.map((c) => c.name)].join(' -> ')})` : '';
  return `${v.rule.name}: ${v.from} -> ${v.to}${cycle}`;
}

describe('architecture (.dependency-cruiser.cjs)', () => {
  test('src, bench, test and harness break no dependency rule', async () => {
    const result = await cruise(ROOT, ['src', 'bench', 'test', 'harness']);
    assert.ok(result.summary.totalCruised > 100, `only ${result.summary.totalCruised} modules cruised: wrong root ${ROOT}?`);
    const violations = result.summary.violations;
    assert.equal(
      violations.length,
      0,
      `${violations.length} dependency rule violations (rules and reasons in .dependency-cruiser.cjs):\n` +
        violations.map((v) => '  ' + describeViolation(v)).join('\n'),
    );
  });

  test('the rules report a known-bad layout, edge by edge, and spare its allowed edges', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'fallow-architecture-'));
    try {
      const files: Record<string, string> = {
        'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'commonjs', strict: true } }),
        // engine-is-pure: the engine reaches into a module (node:fs is fine)
        'src/engine/a.ts': "import { readFileSync } from 'node:fs';\nimport { x } from '../modules/x/x.service';\nexport const a = [x, readFileSync];\n",
        // charts-are-pure: a chart reaches into a module (the engine and node:crypto are fine)
        'src/charts/c.ts': "import { createHash } from 'node:crypto';\nimport { P } from '../engine/p';\nimport { x } from '../modules/x/x.service';\nexport const c = [createHash, P, x];\n",
        // a cycle through a type-only import only: allowed
        'src/engine/p.ts': "import type { Q } from './q';\nexport class P { q?: Q; }\n",
        'src/engine/q.ts': "import { P } from './p';\nexport class Q extends P {}\n",
        // modules-own-their-data: x's service imports y's entity (its own entity is fine)
        'src/modules/x/x.service.ts': "import { X } from './x.entity';\nimport { Y } from '../y/y.entity';\nexport const x = [X, Y];\n",
        'src/modules/x/x.entity.ts': 'export class X {}\n',
        'src/modules/y/y.entity.ts': 'export class Y {}\n',
        'src/modules/y/y.repository.ts': "import { Y } from './y.entity';\nexport class YRepository { y = Y; }\n",
        // the database module may list every entity
        'src/modules/database/data-source.ts': "import { X } from '../x/x.entity';\nimport { Y } from '../y/y.entity';\nexport const entities = [X, Y];\n",
        // worker-uses-modules-through-exports: the worker imports a repository (a service is fine)
        'src/worker/w.ts': "import { x } from '../modules/x/x.service';\nimport { YRepository } from '../modules/y/y.repository';\nexport const w = [x, YRepository];\n",
        // strategy-families-apart: ls imports ga, ga imports the registry (strategy.ts and its own files are fine);
        // no-circular: index -> ga -> index
        'src/engine/strategies/strategy.ts': 'export interface Strategy { name: string }\nexport const NONE = 0;\n',
        'src/engine/strategies/index.ts': "import { ls } from './ls/ls';\nimport { ga } from './ga/ga';\nexport const all = () => [ls, ga];\n",
        'src/engine/strategies/ls/ls.ts': "import { NONE } from '../strategy';\nimport { helper } from './helper';\nimport { ga } from '../ga/ga';\nexport const ls = [NONE, helper, ga];\n",
        'src/engine/strategies/ls/helper.ts': 'export const helper = 1;\n',
        'src/engine/strategies/ga/ga.ts': "import { all } from '../index';\nexport const ga = () => all();\n",
        // src-not-bench-or-test
        'src/cli.ts': "import { run } from '../bench/run';\nimport { a } from './engine/a';\nexport const cli = [run, a];\n",
        // bench-not-test (harness and src are fine)
        'bench/run.ts': "import { h } from '../test/support/h';\nimport { h2 } from '../harness/h2';\nimport { a } from '../src/engine/a';\nexport const run = [h, h2, a];\n",
        'test/support/h.ts': 'export const h = 1;\n',
        // harness-not-bench-or-test
        'harness/h2.ts': "import { h } from '../test/support/h';\nexport const h2 = h;\n",
        // bench-no-circular: a cycle in bench/ through a type import counts (unlike no-circular's in src/)
        'bench/lib/table.ts': "import type { Row } from '../solve/row';\nexport const table = (r: Row) => [r];\n",
        'bench/solve/row.ts': "import { table } from '../lib/table';\nexport interface Row { n: number }\nexport const rows = table({ n: 1 });\n",
      };
      for (const [name, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        writeFileSync(path.join(dir, name), text);
      }
      const result = await cruise(dir, ['src', 'bench', 'test', 'harness']);
      const seen = result.summary.violations.map(describeViolation).join('\n');
      const edges = result.summary.violations
        .filter((v) => v.rule.name !== 'no-circular')
        .map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)
        .sort();
      assert.deepEqual(
        edges,
        [
          'bench-no-circular: bench/lib/table.ts -> bench/solve/row.ts',
          'bench-not-test: bench/run.ts -> test/support/h.ts',
          'charts-are-pure: src/charts/c.ts -> src/modules/x/x.service.ts',
          'engine-is-pure: src/engine/a.ts -> src/modules/x/x.service.ts',
          'harness-not-bench-or-test: harness/h2.ts -> test/support/h.ts',
          'modules-own-their-data: src/modules/x/x.service.ts -> src/modules/y/y.entity.ts',
          'src-not-bench-or-test: src/cli.ts -> bench/run.ts',
          'strategy-families-apart: src/engine/strategies/ga/ga.ts -> src/engine/strategies/index.ts',
          'strategy-families-apart: src/engine/strategies/ls/ls.ts -> src/engine/strategies/ga/ga.ts',
          'worker-uses-modules-through-exports: src/worker/w.ts -> src/modules/y/y.repository.ts',
        ],
        `violations reported:\n${seen}`,
      );
      const cycles = result.summary.violations.filter((v) => v.rule.name === 'no-circular');
      assert.ok(cycles.length > 0, `no-circular missed index -> ga -> index; violations reported:\n${seen}`);
      for (const v of cycles)
        assert.match(v.from, /^src\/engine\/strategies\//, `a cycle outside strategies/ (p <-> q is type-only):\n${seen}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
