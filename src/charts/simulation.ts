/**
 * A simulation against its plan: per job, when the plan said it would end (hollow) and when it ended in the
 * replay (filled, coloured on time / late / unfinished), joined by a line, with the job's kills (each one a
 * relaunch) and remote reads written beside it. A policy run has no plan: only the realised ends are drawn.
 */
import type { Model } from '../engine/model/model';
import type { PlanDoc } from '../engine/model/types';
import type { JobRun, SimReport } from '../engine/simulation';
import { planBars } from './plan-data';
import { chart, ChartSpec, listLine, PLOT_WIDTH } from './spec';

/** Most jobs drawn, one row each; beyond, the jobs whose realised end is furthest from the planned one. */
export const MAX_JOB_ROWS = 50;
const ROW_PX = 16;

/** The report fields the chart reads (reports stored before per-job kills existed lack `kills`, `remoteTasks`). */
export type ReportForChart = Pick<SimReport, 'mode' | 'driver' | 'qos' | 'makespanSeconds' | 'relaunches' | 'remoteTasks' | 'stalledTasks'> & {
  jobs: (Omit<JobRun, 'kills' | 'remoteTasks'> & Partial<Pick<JobRun, 'kills' | 'remoteTasks'>>)[];
};

/** When each accepted job of the plan ends, in seconds from slot 0 (its last task's end slot x slotSeconds). */
export function plannedEnds(model: Model, plan: PlanDoc): Map<string, number> {
  const ends = new Map<string, number>();
  for (const b of planBars(model, plan).bars) ends.set(b.job, Math.max(ends.get(b.job) ?? 0, b.end * model.slotSeconds));
  return ends;
}

interface Row {
  job: string;
  planned: number | null;
  realised: number;
  status: 'on time' | 'late' | 'unfinished';
  note: string;
  order: number;
}

export function simulationSpec(report: ReportForChart, planned: Map<string, number> | null, name: string): ChartSpec {
  const accepted = report.jobs.filter((j) => j.accepted);
  const rejected = report.jobs.filter((j) => !j.accepted).map((j) => j.id);
  const end = Math.max(1, report.makespanSeconds, ...(planned ? [...planned.values()] : []));
  let rows: Row[] = accepted.map((j) => {
    const notes = [j.kills ? `${j.kills} kill${j.kills > 1 ? 's' : ''}` : '', j.remoteTasks ? `${j.remoteTasks} remote read${j.remoteTasks > 1 ? 's' : ''}` : ''].filter(Boolean);
    return {
      job: j.id,
      planned: planned?.get(j.id) ?? null,
      realised: j.endSeconds ?? end,
      status: j.endSeconds === null ? 'unfinished' : j.onTime === false ? 'late' : 'on time',
      note: notes.join(', '),
      order: 0,
    };
  });
  const total = rows.length;
  if (rows.length > MAX_JOB_ROWS) {
    const gap = (r: Row) => (r.status === 'unfinished' ? Infinity : Math.abs(r.realised - (r.planned ?? r.realised)) + (r.note ? 0.5 : 0));
    rows = [...rows].sort((a, b) => gap(b) - gap(a) || (a.job < b.job ? -1 : 1)).slice(0, MAX_JOB_ROWS);
  }
  rows.sort((a, b) => (a.planned ?? a.realised) - (b.planned ?? b.realised) || (a.job < b.job ? -1 : 1)).forEach((r, i) => (r.order = i));
  const x = { type: 'quantitative', title: 'seconds from the start of the window', scale: { domain: [0, end * 1.08], nice: false } };
  const y = { field: 'job', type: 'nominal', sort: { field: 'order' }, title: null };
  return chart({
    title: {
      text: `${planned ? 'Planned vs realised' : 'Realised'} job ends: ${name}`,
      subtitle: [
        `${report.mode === 'plan' ? 'plan replay' : `policy ${report.driver}`}, QoS ${report.qos}: makespan ${Math.round(report.makespanSeconds)} s, ` +
          `${report.relaunches} kills (each relaunched; ${report.stalledTasks} for stalls), ${report.remoteTasks} tasks read their chunk remotely`,
        (planned ? 'hollow: planned end; filled: realised end' : 'realised end') + (total > rows.length ? `; ${rows.length} of ${total} jobs, those furthest from plan` : ''),
        listLine('rejected jobs', rejected),
      ],
    },
    width: PLOT_WIDTH - 200,
    height: Math.max(40, rows.length * ROW_PX),
    data: { values: rows },
    layer: [
      { mark: { type: 'rule', color: '#999' }, encoding: { x: { field: 'planned', ...x }, x2: { field: 'realised' }, y } },
      { mark: { type: 'point', shape: 'circle', filled: false, color: '#333', size: 50 }, encoding: { x: { field: 'planned', ...x }, y } },
      {
        mark: { type: 'point', shape: 'circle', filled: true, size: 60, opacity: 1 },
        encoding: {
          x: { field: 'realised', ...x },
          y,
          color: { field: 'status', type: 'nominal', scale: { domain: ['on time', 'late', 'unfinished'], range: ['#2e7d32', '#ef6c00', '#c62828'] }, legend: { title: 'realised' } },
        },
      },
      { mark: { type: 'text', align: 'left', dx: 8, fontSize: 10, color: '#b71c1c' }, encoding: { x: { field: 'realised', ...x }, y, text: { field: 'note' } } },
    ],
  });
}
