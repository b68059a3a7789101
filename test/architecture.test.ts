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
  modules: { source: string; dependencies: { resolved: string }[] }[];
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

/**
 * The unit of the engine's layering: its folder below src/engine (model, schedule, simulate, ...), except that
 * each family of strategies/ and policies/ is its own unit and so is each file at a root (solve.ts, the registries
 * strategies/index.ts and policies/index.ts, the contracts strategies/strategy.ts (in the known-bad layout) and policies/policy.ts).
 */
function engineUnit(file: string): string | null {
  const m = /^src\/engine\/(.+)$/.exec(file);
  if (!m) return null;
  const parts = m[1].split('/');
  if (parts.length === 1) return parts[0];
  if (parts[0] === 'strategies' || parts[0] === 'policies') return parts.length === 2 ? m[1] : `${parts[0]}/${parts[1]}`;
  return parts[0];
}

/**
 * The circles among the engine's units (Tarjan's strongly connected components of the unit graph, type imports
 * counted), each as its units and the file arrows inside it: an arrow inside a circle runs back up a layer.
 */
function engineFolderCircles(result: CruiseResult): { units: string[]; arrows: string[] }[] {
  const arrows = new Map<string, Map<string, string[]>>();
  for (const mod of result.modules) {
    const a = engineUnit(mod.source);
    if (a === null) continue;
    for (const dep of mod.dependencies) {
      const b = engineUnit(dep.resolved);
      if (b === null || b === a) continue;
      if (!arrows.has(a)) arrows.set(a, new Map());
      const to = arrows.get(a)!;
      to.set(b, [...(to.get(b) ?? []), `${mod.source} -> ${dep.resolved}`]);
    }
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of arrows.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const circle: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      circle.push(w);
    } while (w !== v);
    if (circle.length > 1) circles.push(circle.sort());
  };
  for (const v of arrows.keys()) if (!index.has(v)) visit(v);
  return circles.map((units) => ({
    units,
    arrows: units.flatMap((a) => [...(arrows.get(a) ?? new Map<string, string[]>())].filter(([b]) => units.includes(b)).flatMap(([, e]) => e)).sort(),
  }));
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

  test('the engine folders form no circle: no arrow runs back up a layer', async () => {
    const result = await cruise(ROOT, ['src/engine']);
    const circles = engineFolderCircles(result);
    assert.deepEqual(
      circles.map((c) => c.units.join(' + ')),
      [],
      `engine folder circles (move the shared piece below both):\n${circles.map((c) => `  ${c.units.join(' + ')}\n${c.arrows.map((a) => `    ${a}`).join('\n')}`).join('\n')}`,
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
        // offline-online-one-way: ls imports the simulator
        'src/engine/strategies/ls/ls.ts': "import { NONE } from '../strategy';\nimport { helper } from './helper';\nimport { ga } from '../ga/ga';\nimport type { kernel } from '../../simulate/kernel';\nexport const ls = [NONE, helper, ga];\nexport type Uses = typeof kernel;\n",
        'src/engine/strategies/ls/helper.ts': 'export const helper = 1;\n',
        'src/engine/strategies/ga/ga.ts': "import { all } from '../index';\nexport const ga = () => all();\n",
        // cli-not-worker: the CLI imports a worker thread, a worker thread imports the CLI (src/work/ and their own folders are fine)
        'src/cli/solve.ts': "import { args } from './args';\nimport { runSolve } from '../work/solve';\nimport { serve } from '../worker/kinds/solve.thread';\nexport const solve = [args, runSolve, serve];\n",
        'src/cli/args.ts': 'export const args = 1;\n',
        'src/worker/kinds/solve.thread.ts': "import { runSolve } from '../../work/solve';\nimport { args } from '../../cli/args';\nexport const serve = [runSolve, args];\n",
        // work-is-pure: a kind of work reaches into a module (the engine and node:path are fine)
        'src/work/solve.ts': "import { join } from 'node:path';\nimport { a } from '../engine/a';\nimport { x } from '../modules/x/x.service';\nexport const runSolve = [join, a, x];\n",
        // simulator-knows-no-policy: the kernel imports a policy (its own parts and the model are fine);
        // engine-layers-point-down: the model imports the kernel and an entry point; and so model + simulate
        // are an engine folder circle
        'src/engine/simulate/kernel.ts': "import { hadoop } from '../policies/hadoop/hadoop';\nimport { part } from './part';\nimport { m } from '../model/m';\nexport const kernel = [hadoop, part, m];\n",
        'src/engine/simulate/part.ts': 'export const part = 1;\n',
        'src/engine/model/m.ts': "import type { kernel } from '../simulate/kernel';\nimport type { entry } from '../solve';\nexport const m = 1;\nexport type K = [typeof kernel, typeof entry];\n",
        'src/engine/solve.ts': "import { all } from './strategies/index';\nexport const entry = all;\n",
        // policy-families-apart: hadoop imports fair, the dispatch base imports fair, fair imports the registry
        // (the contract, the bases and its own files are fine); online-gets-strategies-by-lookup: fair imports ls
        'src/engine/policies/policy.ts': 'export interface Policy { name: string }\n',
        'src/engine/policies/index.ts': "import { slots } from './hadoop/slots';\nexport const policies = () => [slots];\n",
        'src/engine/policies/dispatch/base.ts': "import { fair } from '../fair/fair';\nexport const base = fair;\n",
        'src/engine/policies/hadoop/hadoop.ts': "import type { Policy } from '../policy';\nimport { fair } from '../fair/fair';\nimport { slots } from './slots';\nimport { NONE } from '../../strategies/strategy';\nexport const hadoop: Policy[] = [];\nexport const uses = [fair, slots, NONE];\n",
        'src/engine/policies/hadoop/slots.ts': 'export const slots = 1;\n',
        'src/engine/policies/fair/fair.ts': "import { policies } from '../index';\nimport { ls } from '../../strategies/ls/ls';\nexport const fair = () => [policies, ls];\n",
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
        .filter((v) => v.rule.name !== 'no-circular' && v.rule.name !== 'engine-no-circular')
        .map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)
        .sort();
      assert.deepEqual(
        edges,
        [
          'bench-no-circular: bench/lib/table.ts -> bench/solve/row.ts',
          'bench-not-test: bench/run.ts -> test/support/h.ts',
          'charts-are-pure: src/charts/c.ts -> src/modules/x/x.service.ts',
          'cli-not-worker: src/cli/solve.ts -> src/worker/kinds/solve.thread.ts',
          'cli-not-worker: src/worker/kinds/solve.thread.ts -> src/cli/args.ts',
          'engine-is-pure: src/engine/a.ts -> src/modules/x/x.service.ts',
          'engine-layers-point-down: src/engine/model/m.ts -> src/engine/simulate/kernel.ts',
          'engine-layers-point-down: src/engine/model/m.ts -> src/engine/solve.ts',
          'harness-not-bench-or-test: harness/h2.ts -> test/support/h.ts',
          'modules-own-their-data: src/modules/x/x.service.ts -> src/modules/y/y.entity.ts',
          'offline-online-one-way: src/engine/strategies/ls/ls.ts -> src/engine/simulate/kernel.ts',
          'online-gets-strategies-by-lookup: src/engine/policies/fair/fair.ts -> src/engine/strategies/ls/ls.ts',
          'policy-families-apart: src/engine/policies/dispatch/base.ts -> src/engine/policies/fair/fair.ts',
          'policy-families-apart: src/engine/policies/fair/fair.ts -> src/engine/policies/index.ts',
          'policy-families-apart: src/engine/policies/hadoop/hadoop.ts -> src/engine/policies/fair/fair.ts',
          'simulator-knows-no-policy: src/engine/simulate/kernel.ts -> src/engine/policies/hadoop/hadoop.ts',
          'src-not-bench-or-test: src/cli.ts -> bench/run.ts',
          'strategy-families-apart: src/engine/strategies/ga/ga.ts -> src/engine/strategies/index.ts',
          'strategy-families-apart: src/engine/strategies/ls/ls.ts -> src/engine/strategies/ga/ga.ts',
          'work-is-pure: src/work/solve.ts -> src/modules/x/x.service.ts',
          'worker-uses-modules-through-exports: src/worker/w.ts -> src/modules/y/y.repository.ts',
        ],
        `violations reported:\n${seen}`,
      );
      const cycles = result.summary.violations.filter((v) => v.rule.name === 'no-circular');
      assert.ok(cycles.length > 0, `no-circular missed index -> ga -> index; violations reported:\n${seen}`);
      for (const v of cycles)
        assert.match(v.from, /^src\/engine\/strategies\//, `a cycle outside strategies/ (p <-> q is type-only):\n${seen}`);
      // Type imports count inside the engine: p <-> q is a circle there, and so is the model's type-only one.
      const typeCircles = result.summary.violations.filter((v) => v.rule.name === 'engine-no-circular').map((v) => v.from);
      for (const f of ['src/engine/p.ts', 'src/engine/model/m.ts'])
        assert.ok(typeCircles.includes(f), `engine-no-circular missed ${f}; violations reported:\n${seen}`);
      // The folder check finds the circle through model and simulate (m -> kernel -> m), with both arrows in it,
      // and none through the allowed edges alone (p <-> q are root files: a circle of their own).
      const folders = engineFolderCircles(result);
      const withModel = folders.find((c) => c.units.includes('model'));
      assert.ok(withModel?.units.includes('simulate'), `folder circles: ${JSON.stringify(folders)}`);
      for (const arrow of ['src/engine/model/m.ts -> src/engine/simulate/kernel.ts', 'src/engine/simulate/kernel.ts -> src/engine/model/m.ts'])
        assert.ok(withModel!.arrows.includes(arrow), `${arrow} not in ${JSON.stringify(withModel)}`);
      assert.ok(!withModel!.units.includes('strategies/strategy.ts') && !withModel!.units.includes('policies/policy.ts'), 'a contract below everything is in no circle');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
