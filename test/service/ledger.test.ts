/**
 * The accounting arithmetic on its own (no services): minor-unit rounding, SLA status on every basis, the
 * money split and the farmer's share, totals and their identities, UTC period bucketing, CSV, and the
 * per-field checks of execution events.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAccountingQuery } from '../../src/modules/accounting/accounting-query';
import { parseCsv, toCsv } from '../../src/modules/accounting/csv';
import { actualStatus, farmerShare, jobRevenue, LedgerLine, planStatus, simulatedStatus, split, toMinor, totals } from '../../src/modules/accounting/ledger';
import { actualLines, AccountedSolve, planLines, simulatedLines } from '../../src/modules/accounting/lines';
import { inRange, periodOf } from '../../src/modules/accounting/periods';
import { eventIssues, orderIssues, SolveShape, taskKey } from '../../src/modules/executions/event-validation';
import { ProblemException } from '../../src/modules/common/problem';

const at = (s: string) => new Date(s);

describe('ledger', () => {
  it('rounds amounts to minor units half away from zero, never to -0', () => {
    assert.deepEqual([2.5, -2.5, 2.4, -2.6, 0.4, -0.4, 1000].map(toMinor), [3, -3, 2, -3, 0, 0, 1000]);
    assert.ok(Object.is(toMinor(-0.2), 0));
  });

  it('plan status: rejected, on time or late', () => {
    assert.equal(planStatus({ accepted: false, onTime: null }), 'rejected');
    assert.equal(planStatus({ accepted: true, onTime: true }), 'on-time');
    assert.equal(planStatus({ accepted: true, onTime: false }), 'late');
  });

  it('actual status: complete only when every task finished; on time iff end <= deadline', () => {
    const deadlineAt = at('2030-01-01T04:00:00Z');
    const base = { acceptedInPlan: true, totalTasks: 3, deadlineAt };
    assert.equal(actualStatus({ ...base, finishedTasks: 3, endAt: at('2030-01-01T04:00:00Z') }), 'on-time', 'at the deadline is on time');
    assert.equal(actualStatus({ ...base, finishedTasks: 3, endAt: at('2030-01-01T04:00:01Z') }), 'late');
    assert.equal(actualStatus({ ...base, finishedTasks: 2, endAt: at('2030-01-01T01:00:00Z') }), 'pending');
    assert.equal(actualStatus({ ...base, deadlineAt: null, finishedTasks: 3, endAt: at('2031-01-01T00:00:00Z') }), 'on-time', 'no deadline: never late');
    assert.equal(actualStatus({ ...base, acceptedInPlan: false, finishedTasks: 0, endAt: null }), 'rejected');
    assert.equal(actualStatus({ ...base, acceptedInPlan: false, finishedTasks: 3, endAt: deadlineAt }), 'on-time', 'a rejected job that ran anyway counts');
  });

  it('revenue and its split: onTime / late / nothing; penalties are positive amounts', () => {
    const rf = { onTime: 10.5, late: -2 };
    assert.equal(jobRevenue('on-time', rf), 11);
    assert.equal(jobRevenue('late', rf), -2);
    assert.equal(jobRevenue('rejected', rf), 0);
    assert.equal(jobRevenue('pending', rf), 0);
    assert.equal(jobRevenue('on-time', undefined), 0);
    assert.deepEqual(split(-2), { amountDue: 0, penalty: 2, net: -2 });
    assert.deepEqual(split(11), { amountDue: 11, penalty: 0, net: 11 });
  });

  it("the farmer's share is rounded down per job and never negative", () => {
    assert.equal(farmerShare(999, 3000), 299);
    assert.equal(farmerShare(1000, 3000), 300);
    assert.equal(farmerShare(1000, 10000), 1000);
    assert.equal(farmerShare(0, 5000), 0);
    assert.equal(farmerShare(-500, 5000), 0);
  });

  it('totals keep net = due - penalties and margin = net - payouts; PRU is accepted-job-weighted, JCR over all jobs', () => {
    const line = (sla: LedgerLine['sla'], revenue: number, payout: number, planPru: number): LedgerLine => ({
      solveId: 's', batchId: null, customerId: 'c', clusterId: null, farmerId: null, job: 'j', sla, deadlineAt: null, endAt: null, at: new Date(0), revenue, payout, planPru,
    });
    const t = totals([line('on-time', 1000, 300, 0.5), line('late', -200, 0, 0.5), line('rejected', 0, 0, 0.5), line('on-time', 10, 3, 0.8), line('pending', 0, 0, 0.8)]);
    assert.deepEqual(
      { ...t, pru: undefined },
      { jobs: 5, onTime: 2, late: 1, rejected: 1, pending: 1, amountDue: 1010, penalties: 200, net: 810, payouts: 303, margin: 507, pru: undefined, jcr: 2 / 5 },
    );
    assert.ok(Math.abs(t.pru - (0.5 + 0.5 + 0.8 + 0.8) / 4) < 1e-12);
    assert.deepEqual(totals([]).jcr, 0);
  });
});

describe('periods', () => {
  it('buckets by UTC day, ISO week (Monday) and calendar month', () => {
    const t = at('2030-01-06T23:59:59.999Z'); // a Sunday
    assert.deepEqual(periodOf(t, 'day'), { periodStart: '2030-01-06T00:00:00.000Z', periodEnd: '2030-01-07T00:00:00.000Z' });
    assert.deepEqual(periodOf(t, 'week'), { periodStart: '2029-12-31T00:00:00.000Z', periodEnd: '2030-01-07T00:00:00.000Z' });
    assert.equal(periodOf(at('2030-01-07T00:00:00Z'), 'week').periodStart, '2030-01-07T00:00:00.000Z', 'Monday starts a week');
    assert.deepEqual(periodOf(at('2028-02-29T12:00:00Z'), 'month'), { periodStart: '2028-02-01T00:00:00.000Z', periodEnd: '2028-03-01T00:00:00.000Z' });
    assert.equal(periodOf(at('2030-12-31T23:00:00Z'), 'month').periodEnd, '2031-01-01T00:00:00.000Z');
    assert.equal(periodOf(at('2030-01-02T00:30:00+01:00'), 'day').periodStart, '2030-01-01T00:00:00.000Z', 'UTC, whatever the zone given');
  });

  it('ranges are inclusive from, exclusive to, and may be open', () => {
    const r = { from: at('2030-01-01T00:00:00Z'), to: at('2030-01-02T00:00:00Z') };
    assert.ok(inRange(at('2030-01-01T00:00:00Z'), r));
    assert.ok(!inRange(at('2030-01-02T00:00:00Z'), r));
    assert.ok(inRange(at('1999-01-01T00:00:00Z'), { to: r.to }));
  });

  it('query parameters: defaults, and every bad one reported at once', () => {
    assert.deepEqual(parseAccountingQuery({}), { range: { from: undefined, to: undefined }, period: 'day', basis: 'plan', format: 'json' });
    try {
      parseAccountingQuery({ from: 'yesterday', to: '2030-01-01', period: 'year', basis: 'guess', format: 'xml' });
      assert.fail('accepted bad parameters');
    } catch (e) {
      assert.ok(e instanceof ProblemException);
      assert.deepEqual(e.problems.map((p) => p.path), ['query:from', 'query:to', 'query:period', 'query:basis', 'query:format']);
    }
    assert.throws(() => parseAccountingQuery({ from: '2030-01-02T00:00:00Z', to: '2030-01-01T00:00:00Z' }), (e: ProblemException) => e.problems[0].path === 'query:to');
  });
});

describe('plan and actual lines', () => {
  const solve: AccountedSolve = {
    solveId: 's1', customerId: 'c1', batchId: 'b1', clusterId: 'k1', farmerId: 'f1', shareBps: 2500,
    startsAt: at('2030-01-01T00:00:00Z'), slotSeconds: 3600, slots: 48, pru: 0.4,
    jobs: [
      { id: 'a', accepted: true, endSlot: 3, deadlineSlot: 4, onTime: true, revenue: 1000 },
      { id: 'b', accepted: true, endSlot: 30, deadlineSlot: 26, onTime: false, revenue: -200 },
      { id: 'c', accepted: false, endSlot: null, deadlineSlot: 100, onTime: null, revenue: 0 },
    ],
  };

  it('plan basis: times from slots, revenue from the plan, share per job', () => {
    const [a, b, c] = planLines(solve);
    assert.equal(a.endAt!.toISOString(), '2030-01-01T03:00:00.000Z');
    assert.equal(a.deadlineAt!.toISOString(), '2030-01-01T04:00:00.000Z');
    assert.deepEqual([a.sla, a.revenue, a.payout], ['on-time', 1000, 250]);
    assert.deepEqual([b.sla, b.revenue, b.payout, b.at.toISOString()], ['late', -200, 0, '2030-01-02T06:00:00.000Z']);
    assert.deepEqual([c.sla, c.endAt, c.at.toISOString()], ['rejected', null, '2030-01-03T00:00:00.000Z'], 'a deadline past the window counts at the window end');
  });

  it('actual basis: events decide; incomplete jobs are pending with no amount', () => {
    const terms = new Map([
      ['a', { revenue: { onTime: 1000, late: -200 }, tasks: 2 }],
      ['b', { revenue: { onTime: 500, late: -50 }, tasks: 1 }],
      ['c', { tasks: 1 }],
    ]);
    const finished = new Map([
      ['a', { finished: 2, endAt: at('2030-01-01T05:00:00Z') }],
      ['b', { finished: 0, endAt: at('2030-01-01T05:00:00Z') }],
    ]);
    const [a, b, c] = actualLines(solve, terms, finished);
    assert.deepEqual([a.sla, a.revenue, a.endAt!.toISOString(), a.payout], ['late', -200, '2030-01-01T05:00:00.000Z', 0]);
    assert.deepEqual([b.sla, b.revenue, b.endAt, b.at.toISOString()], ['pending', 0, null, '2030-01-02T06:00:00.000Z']);
    assert.equal(c.sla, 'rejected');
  });

  it('simulated basis: the simulation\'s end decides on time or late; unfinished or not simulated is pending', () => {
    const deadlineAt = at('2030-01-01T04:00:00Z');
    assert.equal(simulatedStatus({ simulated: false, accepted: true, endAt: null, deadlineAt }), 'pending');
    assert.equal(simulatedStatus({ simulated: true, accepted: false, endAt: null, deadlineAt }), 'rejected');
    assert.equal(simulatedStatus({ simulated: true, accepted: true, endAt: null, deadlineAt }), 'pending');
    assert.equal(simulatedStatus({ simulated: true, accepted: true, endAt: deadlineAt, deadlineAt }), 'on-time');
    assert.equal(simulatedStatus({ simulated: true, accepted: true, endAt: at('2030-01-01T04:00:01Z'), deadlineAt }), 'late');
    assert.equal(simulatedStatus({ simulated: true, accepted: true, endAt: at('2031-01-01T00:00:00Z'), deadlineAt: null }), 'on-time');
    const terms = new Map([
      ['a', { revenue: { onTime: 1000, late: -200 }, tasks: 2 }],
      ['b', { revenue: { onTime: 500, late: -50 }, tasks: 1 }],
      ['c', { tasks: 1 }],
    ]);
    // a ends 5 h 30 min after slot 0: past its 4 h deadline; b never finished in the simulation.
    const runs = new Map([
      ['a', { accepted: true, endSeconds: 5.5 * 3600 }],
      ['b', { accepted: true, endSeconds: null }],
      ['c', { accepted: false, endSeconds: null }],
    ]);
    const [a, b, c] = simulatedLines(solve, terms, runs);
    assert.deepEqual([a.sla, a.revenue, a.endAt!.toISOString(), a.at.toISOString(), a.payout], ['late', -200, '2030-01-01T05:30:00.000Z', '2030-01-01T05:30:00.000Z', 0]);
    assert.deepEqual([b.sla, b.revenue, b.endAt, b.at.toISOString()], ['pending', 0, null, '2030-01-02T06:00:00.000Z']);
    assert.deepEqual([c.sla, c.revenue], ['rejected', 0]);
    const none = simulatedLines(solve, terms, undefined);
    assert.deepEqual(none.map((l) => [l.sla, l.revenue]), [['pending', 0], ['pending', 0], ['pending', 0]], 'a plan not simulated yet');
  });
});

describe('csv', () => {
  it('writes a header, quotes what needs it, defuses formulas, and parses back', () => {
    const text = toCsv(['a', 'b', 'c'], [['x,y', 'say "hi"', 3], ['=SUM(A1)', -12, null], ['line\nbreak', true, '-5']]);
    assert.ok(text.endsWith('\r\n'));
    assert.deepEqual(parseCsv(text), [
      ['a', 'b', 'c'],
      ['x,y', 'say "hi"', '3'],
      ["'=SUM(A1)", '-12', ''],
      ['line\nbreak', 'true', '-5'],
    ]);
  });
});

describe('execution event checks', () => {
  const solveId = '11111111-1111-4111-8111-111111111111';
  const shapes = new Map<string, SolveShape>([[solveId, { jobs: new Map([['j1', new Map([['map', 2]])]]), nodes: new Set(['w01']) }]]);
  const good = { id: 'e1', solveId, job: 'j1', stage: 'map', task: 1, node: 'w01', type: 'finished', at: '2030-01-01T01:00:00Z' };
  const window = { from: new Date('2029-01-01T00:00:00Z'), to: new Date('2030-01-02T00:00:00Z') };

  it('accepts good events and names every problem of bad ones by path', () => {
    assert.deepEqual(eventIssues([good], shapes, window).issues, []);
    const { issues, parsed } = eventIssues(
      [
        { ...good, id: '', task: 2, node: 'w99', extra: 1 },
        { ...good, id: 'e2', solveId: '22222222-2222-4222-8222-222222222222' },
        { ...good, id: 'e3', job: 'nope' },
        { ...good, id: 'e4', stage: 'reduce', type: 'exploded', at: 'noon' },
        'not an object',
      ],
      shapes,
      window,
    );
    assert.equal(parsed.length, 0);
    assert.deepEqual(issues.map((i) => i.path), [
      'events[0].extra', 'events[0].id', 'events[0].task', 'events[0].node',
      'events[1].solveId', 'events[2].job', 'events[3].stage', 'events[3].type', 'events[3].at', 'events[4]',
    ]);
  });

  it('a repeated id within a request must repeat the same content', () => {
    assert.equal(eventIssues([good, { ...good }], shapes, window).issues.length, 0);
    assert.deepEqual(eventIssues([good, { ...good, at: '2030-01-01T02:00:00Z' }], shapes, window).issues.map((i) => i.path), ['events[1].id']);
  });

  it('times outside the window or of days the calendar lacks are refused, each by path', () => {
    const times = ['0000-01-01T00:00:00Z', '9999-12-31T00:00:00Z', '2030-02-31T00:00:00Z', '2029-02-29T00:00:00Z', '2030-01-01T24:00:00Z', '2028-12-31T23:59:59Z', '2030-01-02T00:00:01Z'];
    const { issues } = eventIssues(times.map((at, i) => ({ ...good, id: `t${i}`, at })), shapes, window);
    assert.deepEqual(issues.map((i) => i.path), times.map((_, i) => `events[${i}].at`));
    assert.match(issues[0].message, /between 2029-01-01T00:00:00.000Z and 2030-01-02T00:00:00.000Z/);
    assert.match(issues[2].message, /real calendar day/);
    assert.deepEqual(eventIssues([{ ...good, at: '2029-01-01T00:00:00Z' }, { ...good, id: 'e2', at: '2030-01-02T00:00:00Z' }], shapes, window).issues, [], 'both ends are inside');
  });

  it('no task ends before its first start: within the request and against the stored events', () => {
    const ev = (id: string, type: string, at: string) => ({ ...good, id, type, at });
    const check = (events: Record<string, unknown>[], stored: Map<string, { firstStart?: Date; firstEnd?: Date }> = new Map()) => {
      const { parsed } = eventIssues(events, shapes, window);
      return orderIssues(events, parsed, stored).map((i) => i.path);
    };
    assert.deepEqual(check([ev('s', 'started', '2030-01-01T01:00:00Z'), ev('f', 'finished', '2030-01-01T00:30:00Z')]), ['events[1].at']);
    assert.deepEqual(check([ev('s1', 'started', '2030-01-01T00:00:00Z'), ev('k', 'killed', '2030-01-01T00:10:00Z'), ev('s2', 'started', '2030-01-01T00:20:00Z'), ev('f', 'finished', '2030-01-01T00:30:00Z')]), [], 'a relaunch');
    const key = taskKey({ solveId, job: 'j1', stage: 'map', task: 1 });
    assert.deepEqual(check([ev('f', 'finished', '2030-01-01T00:30:00Z')], new Map([[key, { firstStart: new Date('2030-01-01T01:00:00Z') }]])), ['events[0].at'], 'a stored start after it');
    assert.deepEqual(check([ev('s', 'started', '2030-01-01T01:00:00Z')], new Map([[key, { firstEnd: new Date('2030-01-01T00:30:00Z') }]])), ['events[0].at'], 'a stored end before it');
    assert.deepEqual(check([ev('f', 'finished', '2030-01-01T00:30:00Z')]), [], 'no start known yet: it may come later');
  });
});
