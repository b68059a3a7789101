/**
 * The independent check: ../shared/tools/check-plan.py over many (instance, plan) pairs with one Python
 * process (the tool is imported as a module and each instance is parsed once), not one spawn per plan.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { havePython } from './suites';

export interface CheckVerdict {
  feasible: boolean | null;
  errors: string[];
}

const DRIVER = `
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("check_plan", sys.argv[1])
mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
cache = {}
for line in sys.stdin:
    line = line.strip()
    if not line: continue
    inst_path, plan_path = json.loads(line)
    try:
        if inst_path not in cache:
            cache.clear()
            with open(inst_path) as f:
                cache[inst_path] = json.load(f)
        with open(plan_path) as f:
            plan = json.load(f)
        errs, summary = mod.check(cache[inst_path], plan)
        print(json.dumps({"feasible": not errs, "errors": errs[:5]}), flush=True)
    except Exception as e:
        print(json.dumps({"feasible": None, "errors": ["check-plan.py raised " + repr(e)]}), flush=True)
`;

export function checkPlanTool(shared: string): string | null {
  const tool = path.join(shared, 'tools', 'check-plan.py');
  return existsSync(tool) && havePython() ? tool : null;
}

/** One verdict per pair, in order; feasible null when the checker could not run. */
export function checkPlans(shared: string, pairs: [instanceFile: string, planFile: string][]): CheckVerdict[] {
  if (pairs.length === 0) return [];
  const tool = checkPlanTool(shared);
  if (!tool) return pairs.map(() => ({ feasible: null, errors: ['check-plan.py or python3 not available'] }));
  // Sorted by instance so each instance is parsed once; answers are put back in the callers' order.
  const order = pairs.map((_, i) => i).sort((a, b) => (pairs[a][0] < pairs[b][0] ? -1 : pairs[a][0] > pairs[b][0] ? 1 : a - b));
  const input = order.map((i) => JSON.stringify(pairs[i])).join('\n') + '\n';
  const r = spawnSync('python3', ['-c', DRIVER, tool], { input, encoding: 'utf8', maxBuffer: 1 << 28 });
  const lines = (r.stdout || '').split('\n').filter((l) => l.trim());
  const out: CheckVerdict[] = pairs.map(() => ({ feasible: null, errors: [`check-plan driver failed: ${(r.stderr || '').trim().slice(-300)}`] }));
  lines.forEach((l, n) => {
    if (n < order.length) out[order[n]] = JSON.parse(l) as CheckVerdict;
  });
  return out;
}
