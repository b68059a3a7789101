/**
 * `fallow simulate`: replays a plan, or runs an online policy, against the regular customers' actual
 * utilisation and prints the realised metrics as one JSON report (src/engine/simulate).
 *   fallow simulate INSTANCE.json PLAN.json [--actual USAGE.json] [--qos salamander|cuckoo|none] [--seed N] [--reduce-slowstart F]
 *   fallow simulate INSTANCE.json --policy NAME|posum [--provision NAME] [--delta D] [--alpha A --beta B --gamma G] [--actual USAGE.json] [--qos ...] [--seed N] ...
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ValidationError } from './engine/model/errors';
import { loadInstance } from './engine/model/model';
import { PlanDoc } from './engine/model/types';
import { POLICY_NAMES } from './engine/policies';
import { PROVISIONING_NAMES, ProvisioningName } from './engine/policies/provisioning';
import type { PortfolioParams } from './engine/posum/portfolio';
import { portfolioFromRequest, portfolioRequestIssues, PortfolioRequest } from './engine/posum/request';
import { QOS_NAMES } from './engine/qos';
import { simulatePlan, simulatePolicy, validateActualUsage, validateRuntimeTruth } from './engine/simulate';

export const SIMULATE_USAGE = `  fallow simulate INSTANCE.json PLAN.json [--actual USAGE.json] [--qos ${QOS_NAMES.join('|')}] [--seed N] [--reduce-slowstart F]
  fallow simulate INSTANCE.json --policy ${[...POLICY_NAMES, 'posum'].join('|')} [--provision ${PROVISIONING_NAMES.join('|')}] [--actual USAGE.json] [--qos ${QOS_NAMES.join('|')}] [--seed N] [--reduce-slowstart F]
    POSUM (--policy posum, or one member: an allocation policy with --provision): [--delta D] [--alpha A] [--beta B] [--gamma G]
    [--period S] [--look-ahead S] [--x N] [--max-slowdown F] [--ls-member: Fallow's ls as a 17th member]; the report carries score, fc and posum's decisions
    --reduce-slowstart F: a stage after others may launch once F of each earlier stage's tasks ended (Hadoop's slow start, in (0, 1]; default 1)
    --true-seconds FILE: what tasks really take, {job: {stage: seconds per task at speed 1}}, where it differs from the instance
    --runtime-sigma S: multiply each task's runtime by a lognormal factor of mean 1 and log-scale spread S (drawn from --seed)`;

/** Exit codes: 0 report printed, 2 bad input (the message names the file or field). */
export function simulateCommand(args: string[]): number {
  try {
    return run(args);
  } catch (e) {
    if (e instanceof ValidationError) {
      process.stderr.write(`fallow: ${e.what} is not valid:\n`);
      for (const i of e.issues) process.stderr.write(`  ${i.path}: ${i.message}\n`);
      return 2;
    }
    if (e instanceof InputError) {
      process.stderr.write(`fallow: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}

function run(args: string[]): number {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { actual: { type: 'string' }, qos: { type: 'string' }, policy: { type: 'string' }, seed: { type: 'string', default: '1' }, 'reduce-slowstart': { type: 'string', default: '1' }, 'true-seconds': { type: 'string' }, 'runtime-sigma': { type: 'string' },
        provision: { type: 'string' }, delta: { type: 'string' }, alpha: { type: 'string' }, beta: { type: 'string' }, gamma: { type: 'string' },
        period: { type: 'string' }, 'look-ahead': { type: 'string' }, x: { type: 'string' }, 'max-slowdown': { type: 'string' }, 'ls-member': { type: 'boolean' } },
    });
  } catch (e) {
    return usage((e as Error).message);
  }
  const { values, positionals } = parsed;
  const seed = Number(values.seed);
  if (!Number.isInteger(seed)) return usage(`--seed must be an integer, got "${values.seed}"`);
  const reduceSlowstart = Number(values['reduce-slowstart']);
  if (!(reduceSlowstart > 0 && reduceSlowstart <= 1)) return usage(`--reduce-slowstart must be a number in (0, 1], got "${values['reduce-slowstart']}"`);
  if (values.qos !== undefined && !QOS_NAMES.includes(values.qos)) return usage(`--qos must be one of ${QOS_NAMES.join(', ')}, got "${values.qos}"`);
  if (values.policy !== undefined && ![...POLICY_NAMES, 'posum'].includes(values.policy))
    return usage(`--policy must be one of ${[...POLICY_NAMES, 'posum'].join(', ')}, got "${values.policy}"`);
  if (values.provision !== undefined && values.policy === undefined) return usage('--provision goes with --policy (a plan leases no nodes)');
  const posum = posumOptions(values);
  if (typeof posum === 'string') return usage(posum);
  if (values.policy === undefined && positionals.length !== 2) return usage('simulate needs INSTANCE.json and PLAN.json, or INSTANCE.json --policy NAME');
  if (values.policy !== undefined && positionals.length !== 1) return usage('simulate --policy takes INSTANCE.json only (no plan)');

  const model = loadInstance(readJson(positionals[0]));
  let actual;
  if (values.actual !== undefined) actual = validateActualUsage(model.doc, readJson(values.actual));
  else process.stderr.write('fallow: no --actual given: simulating with the instance\'s own usage as the actual utilisation (a perfect forecast)\n');
  const sigma = values['runtime-sigma'] === undefined ? undefined : Number(values['runtime-sigma']);
  const runtimeTruth = validateRuntimeTruth(model, values['true-seconds'] === undefined ? undefined : readJson(values['true-seconds']), sigma);
  const options = { actual, qos: values.qos, seed, reduceSlowstart, runtimeTruth, provision: values.provision as ProvisioningName | undefined, posum };
  const report =
    values.policy !== undefined ? simulatePolicy(model, values.policy, options) : simulatePlan(model, readJson(positionals[1]) as PlanDoc, options);
  process.stdout.write(JSON.stringify(report, null, 1) + '\n');
  return 0;
}

/** Bad input the message names (a file that cannot be read or parsed); also used by plot-cli.ts. */
export class InputError extends Error {}

export function readJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read ${path}: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InputError(`${path} is not valid JSON: ${(e as Error).message}`);
  }
}

function usage(message: string): number {
  process.stderr.write(`fallow: ${message}\nusage:\n${SIMULATE_USAGE}\n`);
  return 2;
}

/** The flag each field of a POSUM request comes from (engine/posum/request.ts names fields). */
const POSUM_FLAGS: Record<string, string> = {
  provision: 'provision',
  delta: 'delta',
  alpha: 'alpha',
  beta: 'beta',
  gamma: 'gamma',
  periodSeconds: 'period',
  lookAheadSeconds: 'look-ahead',
  x: 'x',
  maxBoundedSlowdown: 'max-slowdown',
};

/** POSUM's flags as parameters, or the message naming the first bad one. */
function posumOptions(v: Record<string, string | boolean | undefined>): PortfolioParams | string {
  const request: PortfolioRequest = { ...(v['ls-member'] ? { lsMember: true } : {}) };
  for (const [field, flag] of Object.entries(POSUM_FLAGS)) {
    const raw = v[flag];
    if (raw !== undefined) (request as Record<string, unknown>)[field] = field === 'provision' ? raw : Number(raw);
  }
  const [bad] = portfolioRequestIssues(request);
  if (bad) return `--${POSUM_FLAGS[bad.path]} ${bad.message.replace(/, got .*$/, '')}, got "${v[POSUM_FLAGS[bad.path]]}"`;
  return portfolioFromRequest(request);
}
