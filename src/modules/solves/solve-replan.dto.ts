import { ApiProperty } from '@nestjs/swagger';

/** How a re-plan reads the cluster: as it is now, or as the plan's solve assembled it (CreateReplanDto.refresh). */
export const REPLAN_REFRESH = ['current', 'none'] as const;
export type ReplanRefresh = (typeof REPLAN_REFRESH)[number];

class ReplanFrozenCountsDto {
  @ApiProperty({ description: 'given in the request (frozen)' }) explicit!: number;
  @ApiProperty({ description: 'running by the events: their last event by now is started' }) running!: number;
  @ApiProperty({ description: 'finished by the events' }) finished!: number;
  @ApiProperty({ description: 'no event by now, started as planned (assumeStartedAsPlanned)' }) assumed!: number;
}

class ReplanTaskDto {
  @ApiProperty() job!: string;
  @ApiProperty() stage!: string;
  @ApiProperty() task!: number;
}

class RerunTaskDto extends ReplanTaskDto {
  @ApiProperty({ enum: ['killed', 'node-lost', 'after-rerun', 'before-predecessors-end'] }) reason!: string;
}

class ReplanRerunDto {
  @ApiProperty({ description: 'killed by now (the QoS controller, a failure): planned again' }) killed!: number;
  @ApiProperty({ description: "ran, or were planned, on a node the cluster's current version does not have: planned again" }) nodeLost!: number;
  @ApiProperty({ description: 'started after a task of an earlier stage that runs again: a stage starts after every task of the stages it comes after' }) afterRerun!: number;
  @ApiProperty({ description: "started before the instance's durations let the earlier stages' tasks end, and that end is after nowSlot (Hadoop's reduce slow start): planned again after them" })
  beforePredecessorsEnd!: number;
  @ApiProperty({ type: [RerunTaskDto], description: 'the first 100 of them' }) tasks!: RerunTaskDto[];
}

class AdjustedTaskDto extends ReplanTaskDto {
  @ApiProperty({ description: 'the start slot the events gave' }) from!: number;
  @ApiProperty({ description: 'the start slot frozen' }) to!: number;
  @ApiProperty({
    enum: ['ended-sooner', 'after-predecessors', 'within-window'],
    description: "ended-sooner: it finished before the instance's duration from its start, so it is frozen early enough to end then; after-predecessors: it started before its earlier stages' tasks end by the instance's durations; within-window: running, it would end past the window",
  })
  reason!: string;
}

class ReplanAdjustedDto {
  @ApiProperty() count!: number;
  @ApiProperty({ type: [AdjustedTaskDto], description: 'the first 100 of them' }) tasks!: AdjustedTaskDto[];
}

class CommitmentMoveDto {
  @ApiProperty({ description: "the plan re-planned was committed and its commitment moved to the re-plan's plan: that one is committed, the old one released" }) moved!: boolean;
  @ApiProperty({ type: String, nullable: true, description: "why it did not move (the new plan does not fit what others hold now, or its customer's quota): the new plan stays proposed and the old one committed" })
  reason!: string | null;
}

/** A solve's `replan`: how the re-plan was set up and what became of the plan it re-planned. */
export class SolveReplanDto {
  @ApiProperty({ format: 'uuid', description: "the plan re-planned: this solve's plan supersedes it" }) planId!: string;
  @ApiProperty({ description: "the slot re-planned from: frozen tasks keep their place, every other task starts at or after it" }) nowSlot!: number;
  @ApiProperty({ format: 'date-time', description: 'the instant taken as now (events after it were not counted)' }) at!: string;
  @ApiProperty() assumeStartedAsPlanned!: boolean;
  @ApiProperty({ enum: REPLAN_REFRESH }) refresh!: string;
  @ApiProperty({ enum: ['customer', 'operator', 'system'], description: "who asked: the plan's customer, an operator, or the service itself (reason)" }) requestedBy!: string;
  @ApiProperty({ type: String, nullable: true, description: "the service's reason for a re-plan it started itself" }) reason!: string | null;
  @ApiProperty({ type: ReplanFrozenCountsDto, description: "the instance's frozen assignments (GET /v1/solves/{id}/instance lists them), by why they are frozen" }) frozen!: ReplanFrozenCountsDto;
  @ApiProperty({ type: ReplanRerunDto, description: 'tasks that had started and are planned again' }) rerun!: ReplanRerunDto;
  @ApiProperty({ type: ReplanAdjustedDto, description: 'frozen starts changed from what the events said, so that some plan can keep them' }) adjusted!: ReplanAdjustedDto;
  @ApiProperty({ description: 'events not counted: after now, or of tasks the instance does not have' }) ignoredEvents!: number;
  @ApiProperty({ type: CommitmentMoveDto, nullable: true, description: "once the plan is stored: what became of the re-planned plan's commitment; null before, or when it was not committed" })
  commitment!: CommitmentMoveDto | null;
}
