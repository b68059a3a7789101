import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { CONFIG, Config } from '../../config';
import { Issue } from '../../engine/model/types';
import { actualStatus } from '../accounting/ledger';
import { PlanJobOutcome } from '../accounting/lines';
import { slotTime } from '../accounting/periods';
import { Principal } from '../auth/principal';
import { invalid, notFound, ProblemException } from '../common/problem';
import { contentKey, EventInput, eventIssues, eventWindow, orderIssues, phaseIssues, SolveShape, solveIdsOf, TaskSpan, taskKey } from './event-validation';
import { JobExecutionDto, PostExecutionEventsResultDto, SolveExecutionsDto } from './execution.dto';
import { ExecutionsRepository, TaskEventRow } from './executions.repository';

export type { TaskEventRow } from './executions.repository';
import { ClusterSignals } from '../cluster-signals/cluster-signals';

@Injectable()
export class ExecutionsService {
  constructor(
    private readonly repo: ExecutionsRepository,
    private readonly signals: ClusterSignals,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /**
   * Validates the whole request first (a rejected request writes nothing), then records the new events in
   * one transaction. A known id with the same content is a duplicate; with different content the request
   * is a 409 and nothing is written.
   */
  async record(p: Principal, events: unknown[]): Promise<PostExecutionEventsResultDto> {
    const shapes = await this.shapes(p, solveIdsOf(events));
    const { issues, parsed } = eventIssues(events, shapes, eventWindow(Date.now(), this.config.input));
    if (issues.length) throw invalid(issues, 'some events are invalid; nothing was recorded');
    const phased = [...(await this.orderIssues(events, parsed)), ...(await this.phaseIssues(events, parsed))];
    if (phased.length) throw invalid(phased, 'some events are invalid; nothing was recorded');
    const firstIndex = new Map<string, number>();
    events.forEach((e, i) => {
      const id = (e as { id: string }).id;
      if (!firstIndex.has(id)) firstIndex.set(id, i);
    });
    const unique = [...new Map(parsed.map((e) => [e.id, e])).values()];
    const fresh = await this.repo.insertNew(p.tenantId, unique, (known, stored) => {
      const conflicts: Issue[] = known
        .filter((e) => {
          const s = stored.get(e.id);
          return (s && contentKey(s)) !== contentKey(e);
        })
        .map((e) => ({ path: `events[${firstIndex.get(e.id)}].id`, message: `event "${e.id}" was already recorded with different content` }));
      if (conflicts.length) throw new ProblemException(HttpStatus.CONFLICT, 'Conflict', 'event ids already recorded with different content; nothing was recorded', conflicts);
    });
    // Tasks killed now (not repeats) may leave a running plan behind (automatic re-planning).
    const kills = unique.filter((e) => e.type === 'killed' && fresh.has(e.id)).map((e) => ({ solveId: e.solveId, job: e.job, stage: e.stage, task: e.task, node: e.node, atMs: e.at.getTime() }));
    if (kills.length) await this.signals.emit({ kind: 'tasks-killed', kills });
    return { accepted: fresh.size, duplicates: events.length - fresh.size };
  }

  /**
   * What has happened to the tasks of these solves (the versions of one plan: a re-plan reads them to freeze
   * what has started), every reporter's events in the order they happened.
   */
  taskEvents(solveIds: string[]): Promise<TaskEventRow[]> {
    return this.repo.taskEvents(solveIds);
  }

  /** Per job of a solve: how many tasks started, finished and were killed, and its actual SLA status. */
  async ofSolve(p: Principal, solveId: string): Promise<SolveExecutionsDto> {
    const found = await this.repo.reportedSolve(p, solveId);
    if (!found) throw notFound('solve', solveId);
    const { startsAt, slotSeconds } = found;
    const outcomes = new Map<string, PlanJobOutcome>(found.outcomes.map((o) => [o.id, o]));
    const jobs = await this.repo.jobsOf(solveId);
    const counts = await this.repo.taskCounts(solveId);
    const byJob = new Map(counts.map((c) => [c.job, c]));
    return {
      solveId,
      startsAt: startsAt.toISOString(),
      jobs: jobs.map((j): JobExecutionDto => {
        const c = byJob.get(j.job);
        const o = outcomes.get(j.job);
        const deadlineAt = j.deadline === null ? null : slotTime(startsAt, j.deadline, slotSeconds);
        const sla = actualStatus({ acceptedInPlan: o?.accepted ?? true, totalTasks: j.tasks, finishedTasks: c?.finished ?? 0, endAt: c?.end_at ?? null, deadlineAt });
        return {
          job: j.job,
          totalTasks: j.tasks,
          startedTasks: c?.started ?? 0,
          finishedTasks: c?.finished ?? 0,
          killedTasks: c?.killed ?? 0,
          sla,
          endAt: sla === 'on-time' || sla === 'late' ? c!.end_at!.toISOString() : null,
          deadlineAt: deadlineAt?.toISOString() ?? null,
          plannedEndAt: o?.accepted && o.endSlot !== null ? slotTime(startsAt, o.endSlot, slotSeconds).toISOString() : null,
        };
      }),
    };
  }

  /** No task may end before it first started: this request's events against each other and the stored ones. */
  private async orderIssues(events: unknown[], parsed: EventInput[]): Promise<Issue[]> {
    const tasks = [...new Map(parsed.map((e) => [taskKey(e), e])).values()];
    const spans = await this.repo.taskSpans(tasks);
    const stored = new Map<string, TaskSpan>(tasks.map((t, i) => [taskKey(t), { firstStart: spans[i].firstStart ?? undefined, firstEnd: spans[i].firstEnd ?? undefined }]));
    return orderIssues(events, parsed, stored);
  }

  /** A reduce's shuffle cannot end before the task started: its start in this request, else as recorded. */
  private async phaseIssues(events: unknown[], parsed: EventInput[]): Promise<Issue[]> {
    const withPhases = parsed.filter((e) => e.shuffleEndAt);
    if (!withPhases.length) return [];
    const key = (e: EventInput) => JSON.stringify([e.solveId, e.job, e.stage, e.task]);
    const startsHere = new Map<string, Date[]>();
    for (const e of parsed) if (e.type === 'started') startsHere.set(key(e), [...(startsHere.get(key(e)) ?? []), e.at]);
    const stored = await this.repo.lastStarts(withPhases.map((e) => ({ ...e, before: e.at })));
    const start = new Map<EventInput, Date | undefined>();
    withPhases.forEach((e, n) => {
      const candidates = [...(startsHere.get(key(e)) ?? []), ...(stored[n] ? [stored[n]!] : [])].filter((t) => t <= e.at);
      start.set(e, candidates.length ? new Date(Math.max(...candidates.map((t) => t.getTime()))) : undefined);
    });
    return phaseIssues(events, parsed, (e) => start.get(e));
  }

  /** The shapes of the solves the caller may report on (none asked: no query). */
  private async shapes(p: Principal, solveIds: string[]): Promise<Map<string, SolveShape>> {
    if (!solveIds.length) return new Map();
    return this.repo.shapes(p, solveIds);
  }
}
