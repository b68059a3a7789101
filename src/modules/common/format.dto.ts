import { MAX_REVENUE, MAX_SLOT_INDEX, MAX_SLOT_SECONDS, MAX_TASK_SECONDS } from '../../engine/model/input-bounds';
import { TRANSFERS_PRICED } from '../../engine/model/types';
import { PREDICTOR_NAMES } from '../../engine/predict';
import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';

/**
 * OpenAPI descriptions of fallow.instance/v1 and fallow.plan/v1 (FORMAT.md). They document the shapes for
 * generated clients; the engine's validator checks the content and names every problem by JSON path.
 */
const numberMap = { type: 'object', additionalProperties: { type: 'number' } } as const;

export class NodeDto {
  @ApiProperty({ example: 'h01' }) id!: string;
  @ApiPropertyOptional({ example: 'r1' }) rack?: string;
  @ApiPropertyOptional({ example: 'big' }) flavor?: string;
  @ApiProperty({ ...numberMap, description: 'C(k,m) per metric', example: { cpu: 32, ram: 128 } }) capacity!: Record<string, number>;
  @ApiPropertyOptional({ description: 'GFLOP/s one task achieves on this node; default 1' }) speed?: number;
  @ApiPropertyOptional({ description: 'concurrent task slots' }) maxTasks?: number;
  @ApiPropertyOptional() bandwidthMbps?: number;
  @ApiPropertyOptional() costPerHour?: number;
}

export class StageDto {
  @ApiProperty({ example: 'map' }) id!: string;
  @ApiProperty({ example: 64 }) tasks!: number;
  @ApiPropertyOptional({ type: [String], description: 'stages that must end before this one starts' }) after?: string[];
  @ApiProperty({ ...numberMap, description: 'Rq(i,m) of each task', example: { cpu: 1, ram: 3 } }) demand!: Record<string, number>;
  @ApiPropertyOptional({ description: 'GFLOP per task (at most one of work, durationSeconds; a stored batch may give neither: a solve predicts the duration)' }) work?: number;
  @ApiPropertyOptional({ exclusiveMinimum: true, minimum: 0, maximum: MAX_TASK_SECONDS, description: 'fixed duration on every node (at most one of work, durationSeconds)' }) durationSeconds?: number;
  @ApiPropertyOptional({ exclusiveMinimum: true, minimum: 0, maximum: MAX_TASK_SECONDS, description: 'seconds per task when neither work nor durationSeconds is given and the runtime history has nothing for the stage' }) defaultDurationSeconds?: number;
  @ApiPropertyOptional({ description: 'MB each task reads (its input block)' }) inputMB?: number;
  @ApiPropertyOptional({ description: 'MB each task writes (a map\'s output, read by the reduces after it)' }) outputMB?: number;
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'array', items: { type: 'string' } },
    description: 'where each task\'s input block already lives: one list of replica node ids per task (docs/FORMAT.md); without it every node is local',
    example: [['h01', 'h04', 'h09']],
  })
  blocks?: string[][];
}

export class RevenueDto {
  @ApiPropertyOptional({ minimum: -MAX_REVENUE, maximum: MAX_REVENUE }) onTime?: number;
  @ApiPropertyOptional({ minimum: -MAX_REVENUE, maximum: MAX_REVENUE }) late?: number;
}

export class JobDto {
  @ApiProperty({ example: 'j1' }) id!: string;
  @ApiPropertyOptional() customer?: string;
  @ApiPropertyOptional({ enum: ['batch', 'deadline'] }) class?: 'batch' | 'deadline';
  @ApiPropertyOptional({ minimum: 0, maximum: MAX_SLOT_INDEX, description: 'earliest start slot; default 0' }) releaseSlot?: number;
  @ApiPropertyOptional({ minimum: 0, maximum: MAX_SLOT_INDEX, description: 'due slot of the job\'s last task' }) deadlineSlot?: number;
  @ApiPropertyOptional({ type: RevenueDto }) revenue?: RevenueDto;
  @ApiPropertyOptional({ description: 'chunk replicas; default 3' }) replication?: number;
  @ApiPropertyOptional({ maxLength: 200, example: 'org.example.WordCountMapper', description: 'the map class the job runs: the runtime history of its map stages is keyed by it' }) mapClass?: string;
  @ApiPropertyOptional({ maxLength: 200, example: 'org.example.SumReducer', description: 'the reduce class the job runs: the runtime history of its later stages is keyed by it' }) reduceClass?: string;
  @ApiProperty({ type: [StageDto] }) stages!: StageDto[];
}

export class NetworkDto {
  @ApiProperty({ example: 10000, description: 'Mbit/s between two nodes of one rack' }) intraRackMbps!: number;
  @ApiProperty({ example: 1000, description: 'Mbit/s between nodes of two racks' }) interRackMbps!: number;
}

export class HorizonDto {
  @ApiProperty({ example: 480, description: 'T, the number of slots' }) slots!: number;
  @ApiProperty({ example: 180, exclusiveMinimum: true, minimum: 0, maximum: MAX_SLOT_SECONDS }) slotSeconds!: number;
}

export class InstanceDto {
  @ApiProperty({ enum: ['fallow.instance/v1'] }) format!: 'fallow.instance/v1';
  @ApiProperty() name!: string;
  @ApiProperty({ type: HorizonDto }) horizon!: HorizonDto;
  @ApiProperty({ type: [String], example: ['cpu', 'ram'] }) metrics!: string[];
  @ApiPropertyOptional({ ...numberMap, description: 'S(m), fraction of capacity kept free' }) safetyMargin?: Record<string, number>;
  @ApiProperty({ type: [NodeDto] }) nodes!: NodeDto[];
  @ApiPropertyOptional({
    type: 'object',
    description: 'U(k,m,t): node -> metric -> one utilisation fraction per slot',
    additionalProperties: { type: 'object', additionalProperties: { type: 'array', items: { type: 'number' } } },
  })
  usage?: Record<string, Record<string, number[]>>;
  @ApiPropertyOptional({
    type: 'object',
    description:
      'what committed plans of other batches already hold, in absolute amounts per slot: node -> metric (or tasks, the task count) -> amounts ' +
      '(missing node, metric or slot = 0); it comes off C(k,m) * max(0, 1 - U - S), and tasks off maxTasks (docs/FORMAT.md, Reserved capacity)',
    additionalProperties: { type: 'object', additionalProperties: { type: 'array', items: { type: 'number', minimum: 0 } } },
  })
  reserved?: Record<string, Record<string, number[]>>;
  @ApiPropertyOptional({ type: NetworkDto, description: 'bandwidth inside a rack and between racks (remote reads, shuffles)' }) network?: NetworkDto;
  @ApiProperty({ type: [JobDto] }) jobs!: JobDto[];
}

export class AssignmentDto {
  @ApiProperty() job!: string;
  @ApiProperty() stage!: string;
  @ApiProperty() task!: number;
  @ApiProperty() node!: string;
  @ApiProperty() start!: number;
  @ApiPropertyOptional({
    description:
      'in a plan with "transfers": "priced" (and only there): the slots the task spends fetching its input before it computes, holding its demand and ' +
      'its task slot meanwhile; it then occupies start .. start + fetchSlots + duration - 1. An integer >= 0, at least the least fetch time ' +
      '(remote and rack-local block reads, and the shuffle from every earlier task\'s node, one transfer after another on its own link; docs/FORMAT.md)',
  })
  fetchSlots?: number;
}

export class PlacementDto {
  @ApiProperty() job!: string;
  @ApiProperty() stage!: string;
  @ApiProperty() task!: number;
  @ApiProperty({ type: [String] }) nodes!: string[];
}

export class ObjectiveDto {
  @ApiProperty() scheduledTasks!: number;
  @ApiProperty() makespanSlots!: number;
}

export class BoundDto {
  @ApiProperty() makespanSlots!: number;
}

export class RejectionDto {
  @ApiProperty() job!: string;
  @ApiProperty({ enum: ['demand-exceeds-capacity', 'misses-window', 'capacity-taken'] }) code!: string;
  @ApiProperty() reason!: string;
}

export class PlanWindowDto {
  @ApiProperty({ format: 'date-time', description: "wall-clock time of the plan's slot 0 (the forecast's slot the solve's start falls in, else the start)" }) startsAt!: string;
  @ApiProperty() slotSeconds!: number;
  @ApiProperty() slots!: number;
}

export class PlanDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) solveId!: string;
  @ApiProperty() createdAt!: string;
  @ApiProperty({
    enum: ['proposed', 'committed', 'released', 'completed'],
    description: 'proposed when its solve ends; committed (commitPlan): its tasks hold their capacity on the cluster; released (releasePlan): given back; completed: committed and every task has ended',
  })
  status!: 'proposed' | 'committed' | 'released' | 'completed';
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'the cluster it was made on; null for a whole (inline) instance' }) clusterId!: string | null;
  @ApiProperty({ type: PlanWindowDto, description: 'the window the plan was made for: slot t runs from startsAt + t * slotSeconds' }) window!: PlanWindowDto;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) committedAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) releasedAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completedAt!: string | null;
  @ApiProperty({ description: "committed beyond its customer's quota on capacity others left idle: a customer within its quota may take it back (it is then released with a releaseReason)" })
  borrowing!: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'why it was released when its customer did not release it (its borrowed capacity taken back, or superseded by a re-plan that took over its commitment)' }) releaseReason!: string | null;
  @ApiProperty({ description: "1 for a solve's plan; a re-plan's plan is one more than the plan it supersedes" }) version!: number;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: "the plan this one re-planned (replanPlan): its previous version, kept; null for a solve's plan" }) supersedes!: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: "the re-plan's plan that superseded this one (its next version); null while this is the newest" }) supersededBy!: string | null;
  @ApiProperty({ enum: ['fallow.plan/v1'] }) format!: 'fallow.plan/v1';
  @ApiProperty({ description: 'the instance name' }) instance!: string;
  @ApiProperty() strategy!: string;
  @ApiPropertyOptional({
    enum: [TRANSFERS_PRICED],
    description: 'priced: every assignment gives its fetchSlots and a task\'s duration counts its fetch (docs/FORMAT.md, Transfers priced in plans); absent, a task\'s duration is its compute alone',
  })
  transfers?: typeof TRANSFERS_PRICED;
  @ApiProperty({ type: [AssignmentDto] }) assignments!: AssignmentDto[];
  @ApiProperty({ type: [String] }) rejected!: string[];
  @ApiProperty({ type: [RejectionDto], description: 'why each rejected job was left out' }) rejections!: RejectionDto[];
  @ApiPropertyOptional({ type: [PlacementDto] }) placement?: PlacementDto[];
  @ApiProperty({ type: ObjectiveDto }) objective!: ObjectiveDto;
  @ApiPropertyOptional({ type: BoundDto }) bound?: BoundDto;
  @ApiPropertyOptional() optimal?: boolean;
  @ApiPropertyOptional({ description: '(makespan - bound) / bound' }) gap?: number;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'evaluator KPIs: revenue, on-time jobs, utilisation' }) kpis?: Record<string, unknown>;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) stats?: Record<string, unknown>;
}

/** GET /v1/plans/{id}/summary: the plan without its assignments and placement (a large plan's are megabytes), and how many assignments it has. */
export class PlanSummaryDto extends OmitType(PlanDto, ['assignments', 'placement'] as const) {
  @ApiProperty({ description: 'how many assignments the plan has: read them a page at a time (listPlanAssignments)' }) assignmentCount!: number;
}

export class ProblemItemDto {
  @ApiProperty({ example: 'instance.jobs[3].stages[1].after[0]' }) path!: string;
  @ApiProperty({ example: 'unknown stage "mapp"' }) message!: string;
}

export class CommitConflictDto {
  @ApiProperty() node!: string;
  @ApiProperty({ description: 'a metric, or tasks (the task slots)' }) metric!: string;
  @ApiProperty({ description: "the plan's slot" }) slot!: number;
  @ApiProperty({ format: 'date-time', description: "the slot's wall-clock start" }) at!: string;
  @ApiProperty({ description: 'what the plan needs there' }) demand!: number;
  @ApiProperty({ description: 'what is free there now' }) available!: number;
  @ApiProperty({ description: 'demand - available' }) excess!: number;
}

export class QuotaExcessDto {
  @ApiProperty() metric!: string;
  @ApiProperty({ description: "the plan's slot" }) slot!: number;
  @ApiProperty({ format: 'date-time', description: "the slot's wall-clock start" }) at!: string;
  @ApiProperty({ description: 'what the customer holds there already' }) held!: number;
  @ApiProperty({ description: 'what the plan adds' }) adds!: number;
  @ApiProperty({ description: "the quota there: share x the cluster's lendable capacity" }) quota!: number;
}

export class ProblemDto {
  @ApiProperty() type!: string;
  @ApiProperty() title!: string;
  @ApiProperty() status!: number;
  @ApiPropertyOptional() detail?: string;
  @ApiPropertyOptional() instance?: string;
  @ApiPropertyOptional() requestId?: string;
  @ApiPropertyOptional({ type: [CommitConflictDto], description: 'a commit refused (409): where the plan no longer fits, first ones first' }) conflicts?: CommitConflictDto[];
  @ApiPropertyOptional({ type: [QuotaExcessDto], description: "a commit refused (409) by the customer's quota: where the plan would pass it, first ones first" }) quota?: QuotaExcessDto[];
  @ApiProperty({ type: [ProblemItemDto] }) problems!: ProblemItemDto[];
}

/** How one stage's durations were filled in from the execution history (or its defaultDurationSeconds). */
export class StagePredictionDto {
  @ApiProperty() job!: string;
  @ApiProperty() stage!: string;
  @ApiProperty({ enum: [...PREDICTOR_NAMES, 'default'], description: 'the predictor used; default: the stage\'s defaultDurationSeconds' }) predictor!: string;
  @ApiProperty({ description: 'the duration given to each task of the stage' }) durationSeconds!: number;
  @ApiProperty({ description: 'completed tasks the prediction rests on' }) samples!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'one standard deviation of a task\'s runtime around it; null below two samples' }) errorSeconds!: number | null;
  @ApiProperty({ enum: ['current-job', 'class', 'customer', 'map-rate', 'defaultDurationSeconds'], description: 'where it came from' }) source!: string;
}
