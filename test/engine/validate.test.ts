/**
 * Instance validation (src/engine/model/validate.ts) and the derived quantities the model compiles
 * (src/engine/model/model.ts): error messages name the JSON path and the problem, every problem is reported
 * at once, and durations / availability follow FORMAT.md's formulas.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as fc from 'fast-check';
import { ValidationError } from '../../src/engine/model/errors';
import { compile, durationSlots, loadInstance, NO_TASK_LIMIT } from '../../src/engine/model/model';
import { InstanceDoc, Issue } from '../../src/engine/model/types';
import { validateInstance } from '../../src/engine/model/validate';
import { Random } from '../../src/engine/random';
import { assertProperty, clone } from '../support/fixtures';
import { availableOf, durationOf, instanceArb } from '../support/random-instance';

const SEED = 0x7a11d;

function base(): InstanceDoc {
  return {
    format: 'fallow.instance/v1',
    name: 'v',
    horizon: { slots: 5, slotSeconds: 60 },
    metrics: ['cpu', 'ram'],
    nodes: [
      { id: 'n1', capacity: { cpu: 4, ram: 8 } },
      { id: 'n2', capacity: { cpu: 2, ram: 4 }, speed: 2, maxTasks: 3 },
    ],
    usage: { n1: { cpu: [0, 0.1, 0.2, 0.3, 0.4] } },
    jobs: [
      {
        id: 'j0',
        stages: [
          { id: 'map', tasks: 2, demand: { cpu: 1 }, work: 60 },
          { id: 'reduce', tasks: 1, after: ['map'], demand: { ram: 1 }, durationSeconds: 60 },
        ],
      },
    ],
  };
}

/** The issues validateInstance reports (fails when it accepts the document). */
function issuesOf(raw: unknown): Issue[] {
  try {
    validateInstance(raw);
  } catch (e) {
    assert.ok(e instanceof ValidationError, `not a ValidationError: ${e}`);
    assert.equal(e.what, 'instance');
    assert.equal(e.message, `invalid instance: ${e.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
    return e.issues;
  }
  assert.fail('the document was accepted');
}

/** Exactly one issue, with this path and message. */
function expectOne(raw: unknown, path: string, message: string | RegExp) {
  const issues = issuesOf(raw);
  assert.equal(issues.length, 1, JSON.stringify(issues));
  assert.equal(issues[0].path, path);
  if (typeof message === 'string') assert.equal(issues[0].message, message);
  else assert.match(issues[0].message, message);
}

function edit(f: (d: any) => void): unknown {
  const d = clone(base()) as any;
  f(d);
  return d;
}

describe('validateInstance: messages name the JSON path and the problem', () => {
  test('the base instance is valid', () => {
    const d = base();
    assert.equal(validateInstance(d), d, 'returns the document itself');
    assert.doesNotThrow(() => loadInstance(base()));
  });

  test('an unknown stage in "after"', () => {
    const d = edit((d) => {
      for (let j = 1; j <= 3; j++) d.jobs.push({ ...clone(d.jobs[0]), id: `j${j}` });
      d.jobs[3].stages[1].after = ['mapp'];
    });
    const issues = issuesOf(d);
    assert.deepEqual(issues, [{ path: 'jobs[3].stages[1].after[0]', message: 'unknown stage "mapp"' }]);
    assert.throws(() => loadInstance(d), /^ValidationError: invalid instance: jobs\[3\]\.stages\[1\]\.after\[0\]: unknown stage "mapp"$/);
  });

  test('a cycle in the stage graph names its stages', () => {
    const d = edit((d) => {
      d.jobs[0].stages = [
        { id: 'a', tasks: 1, after: ['c'], demand: {}, durationSeconds: 60 },
        { id: 'b', tasks: 1, after: ['a'], demand: {}, durationSeconds: 60 },
        { id: 'c', tasks: 1, after: ['b'], demand: {}, durationSeconds: 60 },
        { id: 'd', tasks: 1, after: ['c'], demand: {}, durationSeconds: 60 },
      ];
    });
    const issues = issuesOf(d);
    assert.equal(issues.length, 1);
    assert.equal(issues[0].path, 'jobs[0].stages');
    const m = /^the stage graph has a cycle: (.+)$/.exec(issues[0].message);
    assert.ok(m, issues[0].message);
    const names = m[1].split(' -> ');
    assert.equal(names[0], names[names.length - 1], 'the cycle closes');
    assert.deepEqual(new Set(names), new Set(['a', 'b', 'c']), 'the stages on the cycle, and only those');
    assert.equal(names.length, 4);
  });

  test('a stage after itself', () => {
    expectOne(edit((d) => (d.jobs[0].stages[0].after = ['map'])), 'jobs[0].stages[0].after[0]', 'a stage cannot come after itself');
  });

  test('a usage series of the wrong length, out of range, or for an unknown node or metric', () => {
    expectOne(edit((d) => (d.usage.n1.cpu = [0, 0, 0])), 'usage.n1.cpu', 'has 3 values but horizon.slots is 5');
    expectOne(edit((d) => (d.usage.n1.cpu = [0, 0, 1.5, 2, 0])), 'usage.n1.cpu[2]', 'must be a fraction in [0, 1], got 1.5');
    expectOne(edit((d) => (d.usage.n1.cpu = [0, 0, -0.1, 0, 0])), 'usage.n1.cpu[2]', 'must be a fraction in [0, 1], got -0.1');
    expectOne(edit((d) => (d.usage.n1.cpu = 'high')), 'usage.n1.cpu', 'must be an array of fractions, one per slot');
    expectOne(edit((d) => (d.usage.n9 = { cpu: [0, 0, 0, 0, 0] })), 'usage.n9', 'unknown node "n9"');
    expectOne(edit((d) => (d.usage.n1.gpu = [0, 0, 0, 0, 0])), 'usage.n1.gpu', 'unknown metric "gpu"');
  });

  test('a stage with both or neither of work and durationSeconds, or a bad amount', () => {
    const exactlyOne = 'must give exactly one of "work" (GFLOP per task) and "durationSeconds"';
    expectOne(edit((d) => (d.jobs[0].stages[1].work = 10)), 'jobs[0].stages[1]', exactlyOne);
    expectOne(edit((d) => delete d.jobs[0].stages[0].work), 'jobs[0].stages[0]', `${exactlyOne} (a stored batch may leave both out: they are predicted)`);
    expectOne(edit((d) => (d.jobs[0].stages[0].work = 0)), 'jobs[0].stages[0].work', 'must be a number > 0, got 0');
    expectOne(edit((d) => (d.jobs[0].stages[1].durationSeconds = '60')), 'jobs[0].stages[1].durationSeconds', 'must be a number > 0 and at most 31622400 (a year), got "60"');
  });

  test('a stored batch may leave durations out (predicted); classes and defaults are checked', () => {
    const neither = edit((d) => delete d.jobs[0].stages[0].work);
    assert.doesNotThrow(() => validateInstance(neither, { durationsMayBePredicted: true }));
    expectOne(edit((d) => (d.jobs[0].mapClass = '')), 'jobs[0].mapClass', 'must be a string of 1 to 200 characters, got ""');
    expectOne(edit((d) => (d.jobs[0].reduceClass = 7)), 'jobs[0].reduceClass', 'must be a string of 1 to 200 characters, got 7');
    expectOne(edit((d) => (d.jobs[0].stages[0].defaultDurationSeconds = 0)), 'jobs[0].stages[0].defaultDurationSeconds', 'must be a number > 0 and at most 31622400 (a year), got 0');
  });

  test('capacities, demands and margins: negative amounts and unknown metrics', () => {
    expectOne(edit((d) => (d.nodes[0].capacity.cpu = -1)), 'nodes[0].capacity.cpu', 'must be a number >= 0, got -1');
    expectOne(edit((d) => (d.nodes[1].capacity.gpu = 1)), 'nodes[1].capacity.gpu', 'unknown metric "gpu" (metrics are cpu, ram)');
    expectOne(edit((d) => (d.jobs[0].stages[0].demand.gpu = 1)), 'jobs[0].stages[0].demand.gpu', 'unknown metric "gpu"');
    expectOne(edit((d) => (d.jobs[0].stages[0].demand.cpu = -2)), 'jobs[0].stages[0].demand.cpu', 'must be a number >= 0, got -2');
    expectOne(edit((d) => (d.safetyMargin = { gpu: 0.1 })), 'safetyMargin.gpu', 'unknown metric "gpu"');
    expectOne(edit((d) => (d.safetyMargin = { cpu: 1.5 })), 'safetyMargin.cpu', 'must be a fraction in [0, 1], got 1.5');
    expectOne(edit((d) => (d.nodes[0].capacity = [4])), 'nodes[0].capacity', 'must be an object of metric -> amount');
  });

  test('input bounds: slot lengths, spans, deadlines, revenues, durations and prototype names (issue 35)', () => {
    const week = 604_800;
    expectOne(edit((d) => (d.horizon.slotSeconds = 1e308)), 'horizon.slotSeconds', 'must be a number > 0 and at most 604800 (a week), got 1e+308');
    assert.doesNotThrow(() => validateInstance(edit((d) => ((d.horizon.slotSeconds = week), (d.jobs[0].deadlineSlot = 5000)))), 'a week-long slot and a deadline 96 years on');
    expectOne(edit((d) => ((d.horizon.slotSeconds = week), (d.jobs[0].deadlineSlot = 6000))), 'jobs[0].deadlineSlot', 'slot 6000 of 604800 s is more than 3162240000 s (100 years) after slot 0');
    expectOne(edit((d) => (d.jobs[0].deadlineSlot = 1e300)), 'jobs[0].deadlineSlot', 'must be an integer in [0, 10000000], got 1e+300');
    expectOne(edit((d) => (d.jobs[0].releaseSlot = 10_000_001)), 'jobs[0].releaseSlot', 'must be an integer in [0, 10000000], got 10000001');
    expectOne(edit((d) => (d.jobs[0].revenue = { onTime: 1e308, late: 0 })), 'jobs[0].revenue.onTime', 'must be a number in [-100000000000, 100000000000], got 1e+308');
    assert.doesNotThrow(() => validateInstance(edit((d) => (d.jobs[0].revenue = { onTime: 1e11, late: -1e11 }))));
    expectOne(edit((d) => (d.jobs[0].stages[1].durationSeconds = 1e308)), 'jobs[0].stages[1].durationSeconds', 'must be a number > 0 and at most 31622400 (a year), got 1e+308');
    const prototypeName = /must not be __proto__, constructor, prototype/;
    for (const name of ['constructor', '__proto__', 'prototype']) {
      assert.throws(() => validateInstance(edit((d) => ((d.nodes[1].id = name), delete d.usage))), (e: any) => e.issues.some((i: any) => i.path === 'nodes[1].id' && prototypeName.test(i.message)));
      assert.throws(() => validateInstance(edit((d) => (d.metrics = ['cpu', 'ram', name]))), (e: any) => e.issues.some((i: any) => i.path === 'metrics[2]' && prototypeName.test(i.message)));
    }
  });

  test('duplicate ids', () => {
    expectOne(edit((d) => (d.nodes[1].id = 'n1')), 'nodes[1].id', 'duplicate node id "n1"');
    expectOne(edit((d) => d.jobs.push({ ...clone(d.jobs[0]) })), 'jobs[1].id', 'duplicate job id "j0"');
    expectOne(edit((d) => (d.jobs[0].stages[1].id = 'map')), 'jobs[0].stages[1].id', 'duplicate stage id "map"');
    expectOne(edit((d) => (d.metrics = ['cpu', 'ram', 'cpu'])), 'metrics[2]', 'duplicate metric "cpu"');
  });

  test('nodes, jobs and the horizon', () => {
    expectOne(edit((d) => (d.nodes[1].speed = 0)), 'nodes[1].speed', 'must be a number > 0, got 0');
    expectOne(edit((d) => (d.nodes[1].maxTasks = 1.5)), 'nodes[1].maxTasks', 'must be an integer >= 0, got 1.5');
    expectOne(edit((d) => ((d.nodes = []), delete d.usage)), 'nodes', 'must be a non-empty array');
    expectOne(edit((d) => (d.jobs[0].releaseSlot = -1)), 'jobs[0].releaseSlot', 'must be an integer in [0, 10000000], got -1');
    expectOne(edit((d) => (d.jobs[0].deadlineSlot = 2.5)), 'jobs[0].deadlineSlot', 'must be an integer in [0, 10000000], got 2.5');
    expectOne(edit((d) => (d.jobs[0].replication = 0)), 'jobs[0].replication', 'must be an integer >= 1, got 0');
    expectOne(edit((d) => (d.jobs[0].class = 'urgent')), 'jobs[0].class', 'must be "batch" or "deadline", got "urgent"');
    expectOne(edit((d) => (d.jobs[0].revenue = { onTime: 1, bonus: 2 })), 'jobs[0].revenue.bonus', 'unknown field (expected onTime or late)');
    expectOne(edit((d) => (d.jobs[0].stages[0].tasks = 0)), 'jobs[0].stages[0].tasks', 'must be an integer >= 1, got 0');
    expectOne(edit((d) => (d.jobs[0].stages = [])), 'jobs[0].stages', 'must be a non-empty array');
    expectOne(edit((d) => (d.horizon.slotSeconds = -60)), 'horizon.slotSeconds', 'must be a number > 0 and at most 604800 (a week), got -60');
    expectOne(edit((d) => (d.format = 'fallow.instance/v2')), 'format', 'must be "fallow.instance/v1", got "fallow.instance/v2"');
    expectOne(edit((d) => delete d.name), 'name', 'must be a non-empty string');
    expectOne([], '$', 'must be a JSON object');
    // An invalid horizon leaves the usage series unchecked for length rather than reporting them all.
    expectOne(edit((d) => (d.horizon.slots = 0)), 'horizon.slots', 'must be an integer >= 1, got 0');
  });

  test('several problems are all reported at once, in document order', () => {
    const issues = issuesOf(
      edit((d) => {
        d.horizon.slotSeconds = 0;
        d.nodes[0].capacity.cpu = -1;
        d.usage.n1.cpu = [0];
        d.jobs[0].stages[1].after = ['mapp'];
        d.jobs[0].stages[0].durationSeconds = 60;
      }),
    );
    assert.deepEqual(
      issues.map((i) => i.path),
      ['horizon.slotSeconds', 'nodes[0].capacity.cpu', 'usage.n1.cpu', 'jobs[0].stages[0]', 'jobs[0].stages[1].after[0]'],
    );
  });

  test('reference and provenance are ignored', () => {
    const plain = base();
    const annotated = { ...base(), reference: { optimum: 'not even a number', nodes: [1, 2] }, provenance: [null, { x: 1 }] };
    assert.doesNotThrow(() => validateInstance(annotated));
    const a = loadInstance(plain);
    const b = loadInstance(annotated);
    assert.deepEqual({ ...a, doc: null }, { ...b, doc: null });
  });

  test('random valid instances are accepted, with or without reference and provenance', () => {
    assertProperty(
      fc.property(instanceArb(), (inst) => {
        const raw = JSON.parse(JSON.stringify(inst));
        assert.doesNotThrow(() => validateInstance(raw));
        const model = loadInstance(raw);
        const { reference: _r, provenance: _p, ...stripped } = raw;
        assert.deepEqual({ ...model, doc: null }, { ...loadInstance(stripped), doc: null });
      }),
      { seed: SEED, numRuns: 200 },
    );
  });

  /** Corruptions of a valid instance and the issue each must produce. */
  const corruptions: { name: string; apply: (d: any, rng: Random) => { path: string; message: RegExp } | null }[] = [
    {
      name: 'negative capacity',
      apply: (d, rng) => {
        const k = rng.int(d.nodes.length);
        const m = rng.pick(d.metrics as string[]);
        d.nodes[k].capacity[m] = -1 - rng.int(5);
        return { path: `nodes[${k}].capacity.${m}`, message: /^must be a number >= 0, got -\d$/ };
      },
    },
    {
      name: 'unknown stage in after',
      apply: (d, rng) => {
        const j = rng.int(d.jobs.length);
        const s = rng.int(d.jobs[j].stages.length);
        const st = d.jobs[j].stages[s];
        st.after = [...(st.after ?? []), 'mapp'];
        return { path: `jobs[${j}].stages[${s}].after[${st.after.length - 1}]`, message: /^unknown stage "mapp"$/ };
      },
    },
    {
      name: 'both work and durationSeconds',
      apply: (d, rng) => {
        const j = rng.int(d.jobs.length);
        const s = rng.int(d.jobs[j].stages.length);
        d.jobs[j].stages[s].work = 10;
        d.jobs[j].stages[s].durationSeconds = 10;
        return { path: `jobs[${j}].stages[${s}]`, message: /^must give exactly one of/ };
      },
    },
    {
      name: 'neither work nor durationSeconds',
      apply: (d, rng) => {
        const j = rng.int(d.jobs.length);
        const s = rng.int(d.jobs[j].stages.length);
        delete d.jobs[j].stages[s].work;
        delete d.jobs[j].stages[s].durationSeconds;
        return { path: `jobs[${j}].stages[${s}]`, message: /^must give exactly one of/ };
      },
    },
    {
      name: 'usage series of the wrong length',
      apply: (d, rng) => {
        const k = rng.int(d.nodes.length);
        const m = rng.pick(d.metrics as string[]);
        const id = d.nodes[k].id;
        d.usage = d.usage ?? {};
        d.usage[id] = d.usage[id] ?? {};
        const n = rng.pick([0, d.horizon.slots - 1, d.horizon.slots + 1]);
        d.usage[id][m] = Array(n).fill(0.5);
        return { path: `usage.${id}.${m}`, message: new RegExp(`^has ${n} values but horizon\\.slots is ${d.horizon.slots}$`) };
      },
    },
    {
      name: 'cycle',
      apply: (d) => {
        for (let j = 0; j < d.jobs.length; j++)
          for (const b of d.jobs[j].stages)
            for (const a of b.after ?? []) {
              const sa = d.jobs[j].stages.find((s: any) => s.id === a);
              sa.after = [...(sa.after ?? []), b.id];
              return { path: `jobs[${j}].stages`, message: /^the stage graph has a cycle: / };
            }
        return null;
      },
    },
    {
      name: 'duplicate node id',
      apply: (d) => {
        if (d.nodes.length < 2) return null;
        d.nodes[d.nodes.length - 1].id = d.nodes[0].id;
        return { path: `nodes[${d.nodes.length - 1}].id`, message: /^duplicate node id "n0"$/ };
      },
    },
    {
      name: 'duplicate stage id',
      apply: (d) => {
        const j = d.jobs.findIndex((job: any) => job.stages.length >= 2);
        if (j < 0) return null;
        const st = d.jobs[j].stages;
        st[st.length - 1].id = st[0].id;
        return { path: `jobs[${j}].stages[${st.length - 1}].id`, message: /^duplicate stage id / };
      },
    },
    {
      name: 'unknown metric in a demand',
      apply: (d, rng) => {
        const j = rng.int(d.jobs.length);
        const s = rng.int(d.jobs[j].stages.length);
        d.jobs[j].stages[s].demand.watts = 3;
        return { path: `jobs[${j}].stages[${s}].demand.watts`, message: /^unknown metric "watts"$/ };
      },
    },
    {
      name: 'zero tasks',
      apply: (d, rng) => {
        const j = rng.int(d.jobs.length);
        const s = rng.int(d.jobs[j].stages.length);
        d.jobs[j].stages[s].tasks = 0;
        return { path: `jobs[${j}].stages[${s}].tasks`, message: /^must be an integer >= 1, got 0$/ };
      },
    },
  ];

  test('each corruption of a random valid instance is reported at its path', () => {
    const seen = new Set<string>();
    assertProperty(
      fc.property(instanceArb(), fc.integer({ min: 0, max: corruptions.length - 1 }), fc.integer({ min: 1, max: 1e9 }), (inst, c, seed) => {
        const d = clone(inst) as any;
        const expected = corruptions[c].apply(d, new Random(seed));
        if (!expected) return;
        seen.add(corruptions[c].name);
        const issues = issuesOf(d);
        assert.ok(
          issues.some((i) => i.path === expected.path && expected.message.test(i.message)),
          `${corruptions[c].name}: expected ${expected.path}: ${expected.message}, got ${JSON.stringify(issues)}`,
        );
      }),
      { seed: SEED, numRuns: 300 },
    );
    assert.equal(seen.size, corruptions.length, `not all corruptions were tried: ${[...seen]}`);
  });
});

describe('derived quantities (FORMAT.md)', () => {
  test('durations: ceil(work / speed / slotSeconds - 1e-9) or ceil(durationSeconds / slotSeconds - 1e-9), at least 1', () => {
    const one = (stage: object, node: object = {}, slotSeconds = 180) =>
      loadInstance({
        format: 'fallow.instance/v1',
        name: 'd',
        horizon: { slots: 10, slotSeconds },
        metrics: ['cpu'],
        nodes: [{ id: 'n', capacity: { cpu: 1 }, ...node }],
        jobs: [{ id: 'j', stages: [{ id: 's', tasks: 1, demand: {}, ...stage }] }],
      }).stages[0].dur[0];
    assert.equal(one({ durationSeconds: 540 }), 3, 'an exact multiple');
    assert.equal(one({ durationSeconds: 541 }), 4);
    assert.equal(one({ work: 360 }, { speed: 2 }), 1, 'work / speed');
    assert.equal(one({ work: 361 }, { speed: 2 }), 2);
    assert.equal(one({ work: 540 }), 3, 'speed defaults to 1');
    assert.equal(one({ durationSeconds: 1e-6 }), 1, 'at least one slot');
    // 0.30000000000000004 / 0.1 = 3.0000000000000004: the 1e-9 keeps float noise from adding a slot ...
    assert.equal(one({ durationSeconds: 0.1 + 0.2 }, {}, 0.1), 3);
    assert.equal(one({ durationSeconds: 180 * (3 + 5e-10) }), 3);
    // ... but no more than that
    assert.equal(one({ durationSeconds: 180 * (3 + 2e-9) }), 4);
    assert.equal(durationSlots(0.3, false, 1, 0.1), 3);
    assert.equal(durationSlots(100, true, 0.5, 60), 4);
  });

  test('durations of random instances follow the formula on every node', () => {
    assertProperty(
      fc.property(instanceArb(), (inst) => {
        const model = loadInstance(inst);
        for (const job of inst.jobs)
          for (const s of job.stages) {
            const g = model.stageIndex.get(`${job.id}\u0000${s.id}`)!;
            inst.nodes.forEach((n, k) => assert.equal(model.stages[g].dur[k], durationOf(inst, s, n), `${job.id}/${s.id} on ${n.id}`));
            assert.equal(model.stages[g].minDur, Math.min(...inst.nodes.map((n) => durationOf(inst, s, n))));
          }
      }),
      { seed: SEED, numRuns: 200 },
    );
  });

  test('available(k, m, t) = C(k, m) * max(0, 1 - U(k, m, t) - S(m))', () => {
    const d = base();
    d.safetyMargin = { cpu: 0.25 };
    d.usage = { n1: { cpu: [0, 0.5, 0.75, 0.9, 1] }, n2: { ram: [0.5, 0.5, 0.5, 0.5, 0.5] } };
    const model = loadInstance(d);
    const av = (k: number, m: number) => Array.from(model.avail[k].subarray(m * model.T, (m + 1) * model.T));
    assert.deepEqual(av(0, 0), [3, 1, 0, 0, 0], 'cpu of n1: 4 * (1 - U - 0.25), never below 0');
    assert.deepEqual(av(0, 1), [8, 8, 8, 8, 8], 'no usage, no margin');
    assert.deepEqual(av(1, 0), [1.5, 1.5, 1.5, 1.5, 1.5], 'margin only');
    assert.deepEqual(av(1, 1), [2, 2, 2, 2, 2], 'usage only');
  });

  test('availability of random instances follows the formula', () => {
    assertProperty(
      fc.property(instanceArb(), (inst) => {
        const model = loadInstance(inst);
        inst.nodes.forEach((n, k) =>
          inst.metrics.forEach((m, mi) => {
            for (let t = 0; t < model.T; t++) assert.equal(model.avail[k][mi * model.T + t], availableOf(inst, n.id, m, t), `${n.id}.${m}[${t}]`);
            assert.equal(model.capacity[k][mi], n.capacity[m] ?? 0);
          }),
        );
        inst.nodes.forEach((n, k) => {
          assert.equal(model.speed[k], n.speed ?? 1);
          assert.equal(model.maxTasks[k], n.maxTasks ?? NO_TASK_LIMIT);
        });
      }),
      { seed: SEED, numRuns: 200 },
    );
  });

  test('the model numbers tasks job by job, stages in a topological order', () => {
    assertProperty(
      fc.property(instanceArb(), (inst) => {
        const model = compile(validateInstance(inst));
        assert.equal(model.nTasks, inst.jobs.reduce((n, j) => n + j.stages.reduce((m, s) => m + s.tasks, 0), 0));
        let next = 0;
        model.jobs.forEach((job, j) => {
          assert.equal(job.id, inst.jobs[j].id);
          assert.equal(job.firstTask, next);
          const pos = new Map(job.stages.map((g, p) => [g, p]));
          for (const g of job.stages) {
            const s = model.stages[g];
            assert.equal(s.firstTask, next);
            for (const p of s.preds) assert.ok(pos.get(p)! < pos.get(g)!, 'predecessors come first');
            const spec = inst.jobs[j].stages.find((x) => x.id === s.id)!;
            assert.deepEqual(s.preds.map((p) => model.stages[p].id).sort(), [...(spec.after ?? [])].sort());
            for (let i = 0; i < s.tasks; i++) {
              assert.equal(model.taskStage[next + i], g);
              assert.equal(model.taskJob[next + i], j);
              assert.equal(model.taskOrdinal[next + i], i);
            }
            next += s.tasks;
          }
          assert.equal(job.taskCount, next - job.firstTask);
        });
      }),
      { seed: SEED, numRuns: 100 },
    );
  });

  test(
    'metric names that are Object.prototype keys (e.g. "constructor") are refused before a model is built (issue 35: they could never be keys of a forecast)',
    () => {
      const d = base() as any;
      d.metrics = ['cpu', 'ram', 'constructor'];
      assert.throws(() => loadInstance(d), (e: any) => e.issues.some((i: any) => i.path === 'metrics[2]'));
    },
  );
});
