/**
 * The independent checker, ../shared/tools/check-plan.py, driven in batches: one python3 process checks many
 * (instance, plan) pairs (it imports the script and calls its check() per pair), so a property test of a few
 * hundred cases costs one interpreter start instead of hundreds.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The repository root (this file compiles to dist/test/support/check-plan.js). */
export const REPO_ROOT = path.resolve(__dirname, '../../..');
export const CHECKER_PATH = path.resolve(REPO_ROOT, '../shared/tools/check-plan.py');
export const SKIP_MESSAGE = '../shared not present: cross-check skipped';

export interface CheckerSummary {
  feasible: boolean;
  scheduledTasks: number;
  totalTasks: number;
  makespanSlots: number;
  rejectedJobs: number;
  revenue: number;
  onTimeJobs: number;
  errors: string[];
  /** Set when check-plan.py raised instead of answering. */
  exception?: string;
}

let available: boolean | undefined;

/** True when ../shared/tools/check-plan.py exists and python3 runs. */
export function checkerAvailable(): boolean {
  if (available === undefined) {
    available = existsSync(CHECKER_PATH) && spawnSync('python3', ['--version'], { encoding: 'utf8' }).status === 0;
  }
  return available;
}

const DRIVER = `
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("check_plan", sys.argv[1])
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
with open(sys.argv[2]) as f:
    for line in f:
        case = json.loads(line)
        try:
            errs, summary = mod.check(case["instance"], case["plan"])
            summary["errors"] = errs[:20]
        except Exception as e:
            summary = {"exception": type(e).__name__ + ": " + str(e)}
        print(json.dumps(summary))
`;

const cache = new Map<string, CheckerSummary>();
/** Cache key: the plan without its free-form `stats` (elapsed times differ from one solve to the next). */
const keyOf = (instance: unknown, plan: unknown) =>
  JSON.stringify(instance) + '\n' + JSON.stringify(plan, (k, v) => (k === 'stats' ? undefined : v));
export let pythonRuns = 0;

/** check-plan.py's verdicts on many pairs with one python3 process (answers are cached for checkPlan). */
export function checkPlans(pairs: { instance: unknown; plan: unknown }[]): CheckerSummary[] {
  const todo = pairs.filter((p) => !cache.has(keyOf(p.instance, p.plan)));
  if (todo.length > 0) {
    const dir = mkdtempSync(path.join(tmpdir(), 'fallow-check-'));
    try {
      const file = path.join(dir, 'cases.jsonl');
      writeFileSync(file, todo.map((p) => JSON.stringify({ instance: p.instance, plan: p.plan })).join('\n') + '\n');
      pythonRuns++;
      const r = spawnSync('python3', ['-c', DRIVER, CHECKER_PATH, file], { encoding: 'utf8', maxBuffer: 1 << 28 });
      if (r.status !== 0) throw new Error(`check-plan.py driver failed (${r.status}): ${r.stderr}`);
      const lines = r.stdout.trim().split('\n');
      if (lines.length !== todo.length) throw new Error(`check-plan.py answered ${lines.length} of ${todo.length} cases: ${r.stderr}`);
      todo.forEach((p, i) => cache.set(keyOf(p.instance, p.plan), JSON.parse(lines[i])));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return pairs.map((p) => cache.get(keyOf(p.instance, p.plan))!);
}

/** One verdict (from the cache of an earlier batch when there is one). */
export function checkPlan(instance: unknown, plan: unknown): CheckerSummary {
  return checkPlans([{ instance, plan }])[0];
}
