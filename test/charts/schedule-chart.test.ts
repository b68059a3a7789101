/**
 * The schedule chart's spec (src/charts/schedule.ts): one panel per metric and one of task slots, regular load,
 * reserved and free stacked in that order, a point per slot and one at the window's end, the capacity as a
 * line, and the subtitle saying where the regular load comes from.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SCHEDULE_SERIES, scheduleSpec, ScheduleChartInput, SchedulePoint, TASK_PANEL } from '../../src/charts/schedule';
import { VEGA_LITE_SCHEMA } from '../../src/charts/spec';

type Json = any;
const T0 = Date.parse('2030-05-01T00:00:00Z');

const INPUT: ScheduleChartInput = {
  title: 'Schedule of cluster c',
  startsAtMs: T0,
  slotSeconds: 1800,
  slots: 3,
  forecast: { id: 'f1', slots: 2 },
  metrics: ['cpu', 'ram'],
  totals: {
    cpu: { capacity: 8, regular: [1, 2, 0], reserved: [3, 0, 9], free: [4, 6, 0] },
    ram: { capacity: 32, regular: [0, 0, 0], reserved: [1.5, 0, 0], free: [30.5, 32, 32] },
  },
  taskTotals: { maxTasks: 4, reserved: [1, 0, 4], free: [3, 4, 0] },
};

describe('schedule chart', () => {
  const spec: Json = scheduleSpec(INPUT);
  const specOf = (input: ScheduleChartInput): Json => scheduleSpec(input);
  const values: SchedulePoint[] = spec.data.values;
  const series = (panel: string, s: string) => values.filter((v) => v.panel === panel && v.series === s).map((v) => [v.at.slice(11, 16), v.amount]);

  test('per metric, each series a point per slot and the last slot\'s value again at the window\'s end', () => {
    assert.equal(spec.$schema, VEGA_LITE_SCHEMA);
    assert.deepEqual(series('cpu', 'regular load'), [['00:00', 1], ['00:30', 2], ['01:00', 0], ['01:30', 0]]);
    assert.deepEqual(series('cpu', 'reserved'), [['00:00', 3], ['00:30', 0], ['01:00', 9], ['01:30', 9]]);
    assert.deepEqual(series('ram', 'free'), [['00:00', 30.5], ['00:30', 32], ['01:00', 32], ['01:30', 32]]);
    assert.ok(values.filter((v) => v.panel === 'cpu').every((v) => v.capacity === 8));
  });

  test('task slots: reserved and free only, capacity maxTasks; panels in the cluster\'s metric order', () => {
    assert.deepEqual(series(TASK_PANEL, 'regular load'), []);
    assert.deepEqual(series(TASK_PANEL, 'free').map(([, v]) => v), [3, 4, 0, 0]);
    assert.ok(values.filter((v) => v.panel === TASK_PANEL).every((v) => v.capacity === 4));
    assert.deepEqual(spec.facet.row.sort, ['cpu', 'ram', TASK_PANEL]);
    assert.equal(specOf({ ...INPUT, taskTotals: null }).data.values.some((v: SchedulePoint) => v.panel === TASK_PANEL), false);
  });

  test('stacked bottom to top regular load, reserved, free; capacity drawn once per time as a line', () => {
    const [area, line] = spec.spec.layer;
    assert.equal(area.encoding.y.stack, 'zero');
    assert.equal(area.encoding.order.field, 'rank');
    assert.deepEqual(area.encoding.color.scale.domain, [...SCHEDULE_SERIES]);
    assert.ok(values.every((v) => SCHEDULE_SERIES[v.rank] === v.series));
    assert.equal(line.mark.type, 'line');
    assert.equal(line.encoding.y.field, 'capacity');
    assert.deepEqual(line.transform, [{ filter: { field: 'series', equal: 'free' } }]);
  });

  test('the subtitle says where the regular load comes from and where its forecast ends', () => {
    assert.match(spec.title.subtitle.join('\n'), /forecast f1, which ends at 2030-05-01T01:00:00.000Z: counted as 0 after it/);
    assert.match(specOf({ ...INPUT, forecast: { id: 'f1', slots: 3 } }).title.subtitle.join('\n'), /regular load from forecast f1$/);
    assert.match(specOf({ ...INPUT, forecast: null }).title.subtitle.join('\n'), /no forecast .* regular load counted as 0/);
  });
});
