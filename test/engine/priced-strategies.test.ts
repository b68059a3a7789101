/**
 * Every registered strategy plans priced transfers (docs/FORMAT.md, Transfers priced in plans; issue 38): on
 * instances with network fields (random ones from random-instance.ts + random-transfers.ts, and a small
 * ACO-BP-shaped one), solve() returns a plan that says `"transfers": "priced"`, gives each task an integer
 * fetchSlots no smaller than the least fetch time (worked out here from the plan's placement, by the engine's
 * LeastFetch and by random-transfers.ts's own reading of the specification), passes the evaluator, and
 * reports the makespan its fetches and computes give. `transfers: "ignored"` gives an unpriced plan that says
 * so in its stats; an instance without network fields is planned exactly alike whatever the option says.
 * The revenue objective likewise, for the strategies that optimise it. Last, check-plan.py (run as a user
 * runs it, then in one batch) finds the plans feasible with the evaluator's KPIs.
 *
 * Searches end by their iteration limit (maxIterations 3; the clock only a backstop), so the plans do not
 * depend on how busy the machine is.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { LeastFetch } from '../../src/engine/network/least-fetch';
import { hasNetworkFields, loadInstance, Model, movesData, stageKey } from '../../src/engine/model/model';
import type { AssignmentDoc, InstanceDoc, PlanDoc } from '../../src/engine/model/types';
import { solve } from '../../src/engine/solve';
import { strategyNames } from '../../src/engine/strategies';
import type { Objective, SolveOptions } from '../../src/engine/contracts/strategy';
import { acoBpInstance } from '../../harness/acobp-instance';
import { tpsPaperInstance } from '../../harness/tps-instance';
import { CHECKER_PATH, checkerAvailable, checkPlans, SKIP_MESSAGE } from '../support/check-plan';
import { clone, withTempDir } from '../support/fixtures';
import { durationOf, InstanceArbOptions, randomInstance } from '../support/random-instance';
import { leastFetchSlotsOf, withTransfers } from '../support/random-transfers';
import { BACKSTOP_MS } from '../support/work-limit';

const BY_ITERATIONS = { maxIterations: 3, timeBudgetMs: BACKSTOP_MS } as const;

/** Strategies that start a MILP solver cost ~0.5-2 s a solve even on tiny instances: fewer, smaller ones. */
const HEAVY = new Set(['exact', 'auto']);
const SMALL: InstanceArbOptions = { minSlots: 10, maxSlots: 20, maxJobs: 3, maxNodes: 3, maxTasks: 3 };

/**
 * Strategies whose priced plans are known to be wrong, with why: their test runs as a TODO (node:test reports
 * it, the run does not fail) until the engine is fixed, when it passes as it stands.
 */
/** Strategies whose priced plans are known to fail, with why (none today; cuckoo's was fixed in locality-list.ts). */
const KNOWN_BUGS: Record<string, string> = {};

interface Case {
  label: string;
  instance: InstanceDoc;
}

/** Random instances in which data moves (fixed seeds: the same every run), and for light strategies a small ACO-BP-shaped cluster. */
function networkCases(heavy: boolean): Case[] {
  const out: Case[] = [];
  // At least 15 slots (10 for the small ones): a fetch of a few slots then still leaves room in the window.
  for (let seed = 1; out.length < (heavy ? 4 : 10); seed++) {
    const instance = withTransfers(randomInstance(4000 + seed, heavy ? SMALL : { minSlots: 15 }), seed);
    // Only those where some data moves at a rate (model.ts movesData): the others plan with compute alone.
    if (movesData(instance)) out.push({ label: `randomInstance(${4000 + seed}) withTransfers(${seed})`, instance });
  }
  if (!heavy) out.push({ label: 'acoBpInstance(scale 0.02, 10 VMs)', instance: acoBpInstance({ seed: 1, scale: 0.02, perFlavour: 2, slots: 400 }) });
  return out;
}

const LIGHT_CASES = networkCases(false);
const HEAVY_CASES = networkCases(true);

/** The same instance saying nothing about moving data: no `network`, `bandwidthMbps`, `blocks` or `outputMB`. */
function withoutTransfers(inst: InstanceDoc): InstanceDoc {
  const out = clone(inst);
  delete out.network;
  for (const n of out.nodes) delete n.bandwidthMbps;
  for (const j of out.jobs)
    for (const s of j.stages) {
      delete s.blocks;
      delete s.outputMB;
    }
  return out;
}

/** Everything but the free-form stats (they hold elapsed times). */
function comparable(plan: PlanDoc) {
  const { stats: _stats, ...rest } = plan;
  return rest;
}

const taskOf = (model: Model, a: AssignmentDoc) => model.stages[model.stageIndex.get(stageKey(a.job, a.stage))!].firstTask + a.task;

/** A solved plan kept for check-plan.py. */
interface Solved {
  strategy: string;
  objective: Objective;
  label: string;
  instance: InstanceDoc;
  plan: PlanDoc;
  /** Its tasks with a fetch (fetchSlots > 0), and with more than the least (padded for contention). */
  fetching: number;
  padded: number;
}
const solved: Solved[] = [];

/**
 * Checks (a)-(c) on a plan solve() priced, and that its objective is what its assignments give (read from the
 * JSON: start + fetchSlots + duration); returns how many of its tasks fetch and how many are padded.
 */
function checkPriced(what: string, instance: InstanceDoc, plan: PlanDoc): { fetching: number; padded: number } {
  const model = loadInstance(instance);
  assert.equal(plan.transfers, 'priced', `${what}: the plan says its transfers are priced`);
  assert.ok(['priced', 'priced-after-search'].includes(plan.stats?.transfers as string), `${what}: stats.transfers ${plan.stats?.transfers}`);
  for (const a of plan.assignments)
    assert.ok(Number.isInteger(a.fetchSlots) && a.fetchSlots! >= 0, `${what}: ${a.job}/${a.stage}/${a.task} has fetchSlots ${a.fetchSlots}`);
  const e = evaluatePlan(model, plan);
  assert.deepEqual(e.violations, [], `${what}: the evaluator accepts the plan`);
  assert.equal(e.ok, true);

  // The least fetch time of each task where the plan puts it and its predecessors, computed here.
  const nodeOf = new Int32Array(model.nTasks).fill(-1);
  for (const a of plan.assignments) nodeOf[taskOf(model, a)] = model.nodeIndex.get(a.node)!;
  const where = new Map(plan.assignments.map((a) => [`${a.job}/${a.stage}/${a.task}`, a.node]));
  const least = new LeastFetch(model);
  let fetching = 0;
  let padded = 0;
  let makespan = 0;
  for (const a of plan.assignments) {
    const i = taskOf(model, a);
    const job = instance.jobs.find((j) => j.id === a.job)!;
    const stage = job.stages.find((s) => s.id === a.stage)!;
    const engine = least.slots(i, nodeOf[i], nodeOf);
    const spec = leastFetchSlotsOf(instance, job, stage, a.task, a.node, (j, s, t) => where.get(`${j}/${s}/${t}`));
    const task = `${what}: ${a.job}/${a.stage}/${a.task} on ${a.node}`;
    assert.equal(engine, spec, `${task}: LeastFetch and the specification's reading differ`);
    assert.ok(a.fetchSlots! >= engine, `${task}: fetchSlots ${a.fetchSlots} below the least fetch time ${engine}`);
    if (a.fetchSlots! > 0) fetching++;
    if (a.fetchSlots! > engine) padded++;
    makespan = Math.max(makespan, a.start + a.fetchSlots! + durationOf(instance, stage, instance.nodes.find((n) => n.id === a.node)!));
  }
  assert.equal(plan.objective.makespanSlots, makespan, `${what}: the makespan counts each task's fetch`);
  assert.equal(plan.objective.scheduledTasks, plan.assignments.length);
  assert.equal(e.kpis.makespanSlots, makespan);
  return { fetching, padded };
}

/** An unpriced plan: no `transfers`, no fetchSlots, accepted by the evaluator. */
function checkUnpriced(what: string, instance: InstanceDoc, plan: PlanDoc) {
  assert.equal('transfers' in plan, false, `${what}: no "transfers" field`);
  assert.ok(
    plan.assignments.every((a) => !('fetchSlots' in a)),
    `${what}: no fetchSlots`,
  );
  assert.deepEqual(evaluatePlan(loadInstance(instance), plan).violations, [], `${what}: the evaluator accepts the plan`);
}

async function solveCase(strategy: string, c: Case, seed: number, extra: SolveOptions = {}): Promise<PlanDoc> {
  return solve(loadInstance(c.instance), { strategy, seed, ...BY_ITERATIONS, ...extra });
}

assert.ok(strategyNames().length >= 11, `strategies: ${strategyNames().join(', ')}`);

for (const name of strategyNames()) {
  describe(`solve({ strategy: "${name}" }) with network fields`, () => {
    const heavy = HEAVY.has(name);
    const cases = heavy ? HEAVY_CASES : LIGHT_CASES;

    test(`priced by default: fetchSlots >= the least fetch time, the evaluator accepts the plan (${cases.length} instances)`, { todo: KNOWN_BUGS[name] }, async (t) => {
      let fetching = 0;
      let padded = 0;
      for (const [n, c] of cases.entries()) {
        const what = `${name} on ${c.label}`;
        const plan = await solveCase(name, c, n + 1);
        const counts = checkPriced(what, c.instance, plan);
        fetching += counts.fetching;
        padded += counts.padded;
        solved.push({ strategy: name, objective: 'tasks-then-makespan', label: c.label, instance: c.instance, plan, ...counts });
        // Asking for it by name changes nothing.
        if (n === 0) assert.deepEqual(comparable(await solveCase(name, c, n + 1, { transfers: 'priced' })), comparable(plan), `${what}: transfers "priced" is the default`);
      }
      t.diagnostic(`${fetching} tasks fetch, ${padded} of them padded above the least for contention`);
      // The instances must give something to price, or the checks above would pass vacuously.
      assert.ok(fetching >= (heavy ? 1 : 10), `${name}: only ${fetching} tasks fetch anything on these instances`);
    });

    test(`transfers "ignored": no "transfers" in the plan, stats.transfers "ignored"`, async () => {
      for (const [n, c] of cases.slice(0, heavy ? 2 : cases.length).entries()) {
        const what = `${name} ignoring transfers on ${c.label}`;
        const plan = await solveCase(name, c, n + 1, { transfers: 'ignored' });
        checkUnpriced(what, c.instance, plan);
        assert.equal(plan.stats?.transfers, 'ignored', what);
      }
    });

    test('without network fields: the same plan whatever transfers says, no stats.transfers', async () => {
      for (const [n, c] of cases.slice(0, heavy ? 2 : cases.length).entries()) {
        const bare = { label: `${c.label} without network fields`, instance: withoutTransfers(c.instance) };
        assert.equal(hasNetworkFields(bare.instance), false);
        const what = `${name} on ${bare.label}`;
        const plain = await solveCase(name, bare, n + 1);
        checkUnpriced(what, bare.instance, plain);
        assert.equal(plain.stats && 'transfers' in plain.stats, false, `${what}: stats.transfers ${plain.stats?.transfers}`);
        for (const transfers of ['priced', 'ignored'] as const) {
          const other = await solveCase(name, bare, n + 1, { transfers });
          assert.deepEqual(comparable(other), comparable(plain), `${what}: transfers "${transfers}" changes the plan`);
          assert.equal(other.stats && 'transfers' in other.stats, false, `${what} (transfers "${transfers}"): stats.transfers ${other.stats?.transfers}`);
        }
      }
    });
  });
}

/** The strategies that optimise the revenue objective (ls, exact and auto read it; tps always maximises revenue). */
const REVENUE = ['ls', 'tps', 'exact', 'auto'];

/**
 * The two-stage paper's platform (every job with a revenue and a deadline, ~1000-1600 tasks) with network
 * fields: a fetch can make a job late there. The revenue searches meet their bound on them within a second.
 */
const REVENUE_CASES: Case[] = [1, 2].map((seed) => ({
  label: `tpsPaperInstance(6 jobs, seed ${seed}) withTransfers(${seed})`,
  instance: withTransfers(tpsPaperInstance({ jobs: 6, seed }), seed),
}));

describe('the revenue objective, priced', () => {
  for (const name of REVENUE) {
    test(`${name}: priced plans whose objective.revenue is the evaluator's and never below 0`, async () => {
      assert.ok(strategyNames().includes(name), `${name} is registered`);
      const cases = [...REVENUE_CASES, ...(HEAVY.has(name) ? HEAVY_CASES : LIGHT_CASES)];
      let fetching = 0;
      let earned = 0;
      for (const [n, c] of cases.entries()) {
        const what = `${name} (revenue) on ${c.label}`;
        const plan = await solveCase(name, c, n + 1, { objective: 'revenue' });
        const counts = checkPriced(what, c.instance, plan);
        const e = evaluatePlan(loadInstance(c.instance), plan);
        assert.equal(plan.stats?.objective, 'revenue', what);
        assert.equal(plan.objective.revenue, e.kpis.revenue, `${what}: the revenue reported is the one the priced ends earn`);
        assert.ok(plan.bound!.revenue! >= e.kpis.revenue - 1e-9, `${what}: bound ${plan.bound!.revenue} below the revenue ${e.kpis.revenue}`);
        // Rejecting every job earns 0: a revenue search never settles for less.
        assert.ok(e.kpis.revenue >= 0, `${what}: revenue ${e.kpis.revenue}`);
        solved.push({ strategy: name, objective: 'revenue', label: c.label, instance: c.instance, plan, ...counts });
        fetching += counts.fetching;
        earned += e.kpis.revenue;
      }
      assert.ok(fetching >= 10 && earned > 0, `${name}: ${fetching} tasks fetch, ${earned} earned: the instances test little`);
    });
  }
});

describe('check-plan.py on the priced plans', () => {
  /**
   * check-plan.py's summary against the evaluator's KPIs: feasible, priced, the same counts and makespan, the
   * same revenue (summed in another order: to 1e-9).
   */
  const assertAgrees = (what: string, s: Solved, summary: Record<string, unknown>) => {
    const k = evaluatePlan(loadInstance(s.instance), s.plan).kpis;
    const { revenue, ...rest } = summary;
    assert.deepEqual(
      rest,
      { feasible: true, scheduledTasks: k.scheduledTasks, makespanSlots: k.makespanSlots, rejectedJobs: s.plan.rejected.length, onTimeJobs: k.onTimeJobs, transfersPriced: true },
      what,
    );
    assert.ok(Math.abs((revenue as number) - k.revenue) < 1e-9, `${what}: revenue ${revenue}, the evaluator's ${k.revenue}`);
  };

  test('run as a user runs it (python3 check-plan.py INSTANCE PLAN): feasible, with the evaluator\'s makespan and KPIs', async (t) => {
    if (!checkerAvailable()) return t.skip(`${SKIP_MESSAGE} (no ${CHECKER_PATH})`);
    // One plan each of strategies that price in different ways, the one with the most fetching tasks.
    const picks: Solved[] = [];
    for (const [strategy, objective] of [
      ['ls', 'tasks-then-makespan'],
      ['rffd', 'tasks-then-makespan'],
      ['aco-bp', 'tasks-then-makespan'],
      ['exact', 'tasks-then-makespan'],
      ['portfolio', 'tasks-then-makespan'],
      ['tps', 'revenue'],
      ['ls', 'revenue'],
    ] as const) {
      const mine = solved.filter((s) => s.strategy === strategy && s.objective === objective);
      assert.ok(mine.length > 0, `no plan of ${strategy} (${objective}) solved above`);
      picks.push(mine.reduce((a, b) => (b.fetching > a.fetching ? b : a)));
    }
    assert.ok(
      picks.some((p) => p.padded > 0),
      'at least one plan padded for contention',
    );
    await withTempDir((_dir, write) => {
      picks.forEach((s, n) => {
        const what = `${s.strategy} (${s.objective}) on ${s.label}`;
        const args = [CHECKER_PATH, write(`instance-${n}.json`, s.instance), write(`plan-${n}.json`, s.plan)];
        const json = spawnSync('python3', [...args, '--json'], { encoding: 'utf8' });
        assert.equal(json.status, 0, `${what}: check-plan.py exits ${json.status}: ${json.stdout}${json.stderr}`);
        const { errors, totalTasks: _total, ...summary } = JSON.parse(json.stdout);
        assert.deepEqual(errors, [], what);
        assertAgrees(what, s, summary);
        // Its plain report says so too (the first line of what a user reads).
        if (n === 0) {
          const text = spawnSync('python3', args, { encoding: 'utf8' });
          assert.equal(text.status, 0, text.stdout);
          assert.match(text.stdout, /^FEASIBLE .*makespanSlots=\d+/, text.stdout);
        }
      });
    });
  });

  test('every priced plan solved above, in one batch: feasible, with the evaluator\'s KPIs', (t) => {
    if (!checkerAvailable()) return t.skip(`${SKIP_MESSAGE} (no ${CHECKER_PATH})`);
    // Every strategy but those with a known bug (which may have stopped after a few plans) contributed all its plans.
    for (const name of strategyNames().filter((n) => !KNOWN_BUGS[n]))
      assert.equal(solved.filter((s) => s.strategy === name && s.objective === 'tasks-then-makespan').length, (HEAVY.has(name) ? HEAVY_CASES : LIGHT_CASES).length, name);
    checkPlans(solved).forEach((py, n) => {
      const s = solved[n];
      const what = `${s.strategy} (${s.objective}) on ${s.label}: ${JSON.stringify(py.errors?.slice(0, 3))}`;
      assert.equal(py.exception, undefined, what);
      const { errors: _e, totalTasks: _t, exception: _x, ...summary } = py;
      assertAgrees(what, s, summary);
    });
  });
});

describe('links but nothing to move on them', () => {
  test('bandwidthMbps alone (the ephemeral clusters): the plan is the compute-alone plan, and stats.transfers says nothing moves', async () => {
    const base = withoutTransfers(LIGHT_CASES[0].instance);
    const linked = clone(base);
    for (const n of linked.nodes) n.bandwidthMbps = 50;
    assert.equal(movesData(linked), false);
    for (const strategy of ['rffd', 'ls']) {
      const options: SolveOptions = { strategy, maxIterations: 3, seed: 1 };
      const plain = await solve(loadInstance(base), options);
      const plan = await solve(loadInstance(linked), options);
      assert.equal(plan.transfers, undefined, strategy);
      assert.equal((plan.stats as Record<string, unknown>).transfers, 'nothing-to-move', strategy);
      assert.deepEqual(plan.assignments, plain.assignments, strategy);
    }
  });
});
