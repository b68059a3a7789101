/**
 * The benchmark's instance sets. Everything that is generated or converted goes to the cache directory
 * (outside git); files of ../shared are read where they are and never copied into the repository.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { BenchInstance, naturalCompare, SuiteName } from './types';

export interface SuiteOptions {
  shared: string;
  cache: string;
  limit?: number;
  sample?: number;
  /** Only instances whose name contains one of these strings. */
  filter?: string[];
  log: (msg: string) => void;
}

export interface SuiteResult {
  instances: BenchInstance[];
  skipped: string[];
}

/** The issue's ephemeral set: pc1, pc2, univ x 680 and 2,500 tasks x load 0.25 and load 1.3 (max 160 maps). */
export const EPHEMERAL_SPECS: { dc: string; tasks: number; load: number; maxMaps?: number }[] = [];
for (const tasks of [680, 2500])
  for (const [load, maxMaps] of [
    [0.25, undefined],
    [1.3, 160],
  ] as const)
    for (const dc of ['pc1', 'pc2', 'univ']) EPHEMERAL_SPECS.push({ dc, tasks, load, maxMaps });

/** Default j120 sample: every 10th file in natural order = instance 1 of each of the 60 parameter groups. */
export const J120_DEFAULT_SAMPLE = 60;

let pythonChecked: boolean | undefined;
export function havePython(): boolean {
  if (pythonChecked === undefined) {
    const r = spawnSync('python3', ['--version'], { encoding: 'utf8' });
    pythonChecked = r.status === 0;
  }
  return pythonChecked;
}

/** Deterministic subset: evenly spaced `sample` (index floor(i * n / sample)), then the first `limit`. */
export function select<T>(items: T[], sample?: number, limit?: number): T[] {
  let out = items;
  if (sample !== undefined && sample > 0 && sample < items.length) {
    out = [];
    for (let i = 0; i < sample; i++) out.push(items[Math.floor((i * items.length) / sample)]);
  }
  if (limit !== undefined && limit >= 0) out = out.slice(0, limit);
  return out;
}

function applyFilter(list: BenchInstance[], filter?: string[]): BenchInstance[] {
  if (!filter || filter.length === 0) return list;
  return list.filter((i) => filter.some((f) => i.name.includes(f)));
}

export function loadSuite(suite: SuiteName, o: SuiteOptions): SuiteResult {
  switch (suite) {
    case 'shared':
      return sharedSuite(o);
    case 'ephemeral':
      return ephemeralSuite(o);
    case 'j30':
    case 'j120':
      return psplibSuite(suite, o);
    default:
      return { instances: [], skipped: [] };
  }
}

function sharedSuite(o: SuiteOptions): SuiteResult {
  const dir = path.join(o.shared, 'instances');
  if (!existsSync(dir)) return { instances: [], skipped: [`shared: ${dir} not found`] };
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort(naturalCompare);
  const all = files.map((f) => ({ suite: 'shared' as const, name: f.replace(/\.json$/, ''), file: path.join(dir, f), origin: `shared/instances/${f}` }));
  return { instances: select(applyFilter(all, o.filter), o.sample, o.limit), skipped: [] };
}

export function ephemeralName(s: { dc: string; tasks: number; load: number; maxMaps?: number }): string {
  return `ephemeral-${s.dc}-${s.tasks}-load${s.load}${s.maxMaps ? `-mm${s.maxMaps}` : ''}-s1`;
}

function ephemeralSuite(o: SuiteOptions): SuiteResult {
  const gen = path.join(o.shared, 'tools', 'gen-instance.py');
  if (!existsSync(gen)) return { instances: [], skipped: [`ephemeral: ${gen} not found`] };
  if (!havePython()) return { instances: [], skipped: ['ephemeral: python3 not found (needed by gen-instance.py)'] };
  const dir = path.join(o.cache, 'instances', 'ephemeral');
  mkdirSync(dir, { recursive: true });
  const all: BenchInstance[] = EPHEMERAL_SPECS.map((s) => {
    const args = ['ephemeral', '--dc', s.dc, '--tasks', String(s.tasks), '--load', String(s.load)];
    if (s.maxMaps) args.push('--max-maps', String(s.maxMaps));
    args.push('--seed', '1');
    const name = ephemeralName(s);
    return { suite: 'ephemeral', name, file: path.join(dir, `${name}.json`), origin: `gen-instance.py ${args.join(' ')}` };
  });
  const chosen = select(applyFilter(all, o.filter), o.sample, o.limit);
  const skipped: string[] = [];
  const ok: BenchInstance[] = [];
  for (const inst of chosen) {
    if (!existsSync(inst.file)) {
      o.log(`generating ${inst.name}: ${inst.origin}`);
      const args = inst.origin.replace(/^gen-instance\.py /, '').split(' ');
      const r = spawnSync('python3', [gen, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
      if (r.status !== 0) {
        skipped.push(`ephemeral ${inst.name}: gen-instance.py failed: ${(r.stderr || '').trim().slice(0, 300)}`);
        continue;
      }
      writeFileSync(inst.file + '.part', r.stdout);
      renameSync(inst.file + '.part', inst.file);
    }
    ok.push(inst);
  }
  return { instances: ok, skipped };
}

/** Converts many PSPLIB files with one Python process (psplib-to-instance.py imported as a module). */
const CONVERT_DRIVER = `
import importlib.util, json, os, sys
tool, bounds = sys.argv[1], sys.argv[2]
spec = importlib.util.spec_from_file_location("psplib_to_instance", tool)
mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
for line in sys.stdin:
    line = line.strip()
    if not line: continue
    src, dst = json.loads(line)
    try:
        inst = mod.convert(src, bounds if os.path.isdir(bounds) else None)
        with open(dst + ".part", "w") as f:
            json.dump(inst, f)
            f.write("\\n")
        os.replace(dst + ".part", dst)
        print(json.dumps({"ok": True, "dst": dst}), flush=True)
    except Exception as e:
        print(json.dumps({"ok": False, "dst": dst, "error": repr(e)}), flush=True)
`;

function psplibSuite(suite: 'j30' | 'j120', o: SuiteOptions): SuiteResult {
  const data = path.join(o.shared, 'data', 'psplib-rcpsp');
  const dir = path.join(data, `${suite}.sm`);
  const tool = path.join(o.shared, 'tools', 'psplib-to-instance.py');
  const bounds = path.join(data, 'bounds');
  if (!existsSync(dir)) return { instances: [], skipped: [`${suite}: ${dir} not found`] };
  if (!existsSync(tool)) return { instances: [], skipped: [`${suite}: ${tool} not found`] };
  if (!havePython()) return { instances: [], skipped: [`${suite}: python3 not found (needed by psplib-to-instance.py)`] };
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.sm'))
    .sort(naturalCompare);
  const out = path.join(o.cache, 'instances', suite);
  mkdirSync(out, { recursive: true });
  const all: BenchInstance[] = files.map((f) => {
    const base = f.replace(/\.sm$/, '');
    return {
      suite,
      name: base,
      file: path.join(out, `psplib-${base}.json`),
      origin: `psplib-to-instance.py ${suite}.sm/${f} --bounds bounds`,
    };
  });
  const sample = o.sample ?? (suite === 'j120' ? J120_DEFAULT_SAMPLE : undefined);
  const chosen = select(applyFilter(all, o.filter), sample, o.limit);
  const missing = chosen.filter((i) => !existsSync(i.file));
  const skipped: string[] = [];
  if (missing.length) {
    o.log(`converting ${missing.length} ${suite} files with psplib-to-instance.py --bounds ${bounds}`);
    const input = missing.map((i) => JSON.stringify([path.join(dir, `${i.name}.sm`), i.file])).join('\n') + '\n';
    const r = spawnSync('python3', ['-c', CONVERT_DRIVER, tool, bounds], { input, encoding: 'utf8', maxBuffer: 1 << 28 });
    if (r.status !== 0) skipped.push(`${suite}: conversion driver failed: ${(r.stderr || '').trim().slice(0, 300)}`);
    for (const line of (r.stdout || '').split('\n')) {
      if (!line.trim()) continue;
      const m = JSON.parse(line) as { ok: boolean; dst: string; error?: string };
      if (!m.ok) skipped.push(`${suite} ${path.basename(m.dst)}: ${m.error}`);
    }
  }
  return { instances: chosen.filter((i) => existsSync(i.file)), skipped };
}
