import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsISO8601, IsNumber, IsObject, IsOptional, IsUUID, Max, Min } from 'class-validator';
import { getStrategy, strategyNames } from '../../engine/strategies';
import { Objective, OBJECTIVES, TRANSFERS_OPTIONS, TransfersOption } from '../../engine/contracts/strategy';
import { HorizonDto, InstanceDto, StagePredictionDto } from '../common/format.dto';
import { ScoreWeightsDto } from '../common/score-weights.dto';
import { PREDICTOR_CHOICES, PredictorChoice } from '../../engine/predict';
import { SOLVE_KINDS, SOLVE_STATUSES, SolveKind, SolveStatus } from './solve.entity';
import { SolveReplanDto } from './solve-replan.dto';
import { FORECAST_CHOICE_DESCRIPTION, FORECAST_CHOICES, ForecastChoice } from '../forecasts/forecast-choice';
import { SOLVE_DEFAULTS } from './solve-defaults';

export const MAX_TIME_BUDGET_MS = 600_000;

/**
 * Either a whole `instance`, or references: a (lendable) cluster, a batch of the caller's and optionally a
 * forecast of that cluster, from which the service assembles the instance.
 */
export class CreateSolveDto {
  @ApiPropertyOptional({ type: InstanceDto, description: 'a whole fallow.instance/v1 problem (instead of clusterId/batchId)' })
  @IsOptional()
  @IsObject()
  instance?: InstanceDto;

  @ApiPropertyOptional({ format: 'uuid', description: 'the cluster to solve on: your own or a lendable one (listOfferedClusters); with batchId, instead of instance' }) @IsOptional() @IsUUID() clusterId?: string;
  @ApiPropertyOptional({
    format: 'uuid',
    description:
      "utilisation forecast of the cluster, used from the slot of startsAt. Default: the cluster version's newest forecast covering startsAt " +
      "(the solve's forecastId and forecastChoice say which); none covering it is a 422 naming forecastId. With a horizon and no forecastId the nodes are idle",
  })
  @IsOptional()
  @IsUUID()
  forecastId?: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'your batch of jobs to schedule on the cluster' }) @IsOptional() @IsUUID() batchId?: string;

  @ApiPropertyOptional({ type: HorizonDto, description: 'scheduling window; required with references when no forecast gives it' })
  @IsOptional()
  @IsObject()
  horizon?: HorizonDto;

  @ApiPropertyOptional({
    enum: strategyNames(),
    default: SOLVE_DEFAULTS.strategy,
    description: strategyNames()
      .map((name) => `${name}: ${getStrategy(name).description}`)
      .join('; '),
  })
  @IsOptional()
  @IsIn(strategyNames())
  strategy?: string;

  @ApiPropertyOptional({
    enum: OBJECTIVES,
    default: SOLVE_DEFAULTS.objective,
    description: 'tasks-then-makespan: most scheduled tasks, then the smallest makespan; revenue: the largest total revenue of the jobs (strategies without a revenue mode ignore it)',
  })
  @IsOptional()
  @IsIn(OBJECTIVES as unknown as string[])
  objective?: Objective;

  @ApiPropertyOptional({
    format: 'date-time',
    example: '2030-01-01T00:00:00Z',
    description: 'wall-clock time of slot 0 of the plan (default: when the solve is created); accounting places slot s at startsAt + s * horizon.slotSeconds',
  })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: '$property must be an ISO 8601 date-time with a zone, e.g. 2030-01-01T00:00:00Z' })
  startsAt?: string;

  @ApiPropertyOptional({
    default: false,
    description:
      "solve with a forecast whose window does not contain startsAt (from its slot 0), with a warning in the solve, instead of a 422; without forecastId, when none covers startsAt, the cluster version's newest forecast",
  })
  @IsOptional()
  @IsBoolean()
  allowStaleForecast?: boolean;

  @ApiPropertyOptional({ minimum: 100, maximum: MAX_TIME_BUDGET_MS, default: SOLVE_DEFAULTS.timeBudgetMs, description: 'wall-clock budget of the search' })
  @IsOptional()
  @IsInt()
  @Min(100)
  @Max(MAX_TIME_BUDGET_MS)
  timeBudgetMs?: number;

  @ApiPropertyOptional({
    oneOf: [{ type: 'number', minimum: 0, maximum: 1 }, { type: 'object', additionalProperties: { type: 'number' } }],
    description: 'S(m): fraction of capacity kept free, one number for every metric or one per metric; overrides the instance\'s',
  })
  @IsOptional()
  safetyMargin?: number | Record<string, number>;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 2 ** 31 - 1, default: SOLVE_DEFAULTS.seed, description: 'random seed: a strategy stopped by an iteration limit rather than the clock finds the same plan for the same seed' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(2 ** 31 - 1)
  seed?: number;

  @ApiPropertyOptional({
    default: SOLVE_DEFAULTS.shuffleAware,
    description:
      "for plans that count compute only (transfers: ignored): after the search, place each reduce (a stage reading other stages' outputMB) " +
      "where its share of their output arrives first over the nodes' links (bandwidthMbps, the network's rack rates), the other tasks " +
      'staying as planned: plans made without the links put the reduces where the forecast has room, often on a few nodes whose downlinks ' +
      'then carry the whole shuffle. The plan says how many moved in stats.shuffleAware.movedReduces; its makespan in slots may grow, as ' +
      'such a plan counts compute only. A priced plan (transfers: priced, the default, on an instance with network fields) already places ' +
      'each reduce with its fetch: nothing moves, and stats.shuffleAware says so (movedReduces 0 and a reason)',
  })
  @IsOptional()
  @IsBoolean()
  shuffleAware?: boolean;

  @ApiPropertyOptional({
    enum: TRANSFERS_OPTIONS,
    default: SOLVE_DEFAULTS.transfers,
    description:
      'priced: the plan counts the time each task spends fetching its input over the network (its block from a holder, its share of ' +
      "earlier stages' outputMB) before it computes, and says \"transfers\": \"priced\" with each assignment's fetchSlots (docs/FORMAT.md, " +
      "Transfers priced in plans); ignored: durations are compute alone. It only matters when data can move at a rate (network or a node's " +
      "bandwidthMbps, and a stage's blocks to read or outputMB a later stage reads); otherwise nothing is priced either way. The plan's " +
      'stats.transfers says what was done: priced, priced-after-search (the strategy searched with compute alone and its order was planned ' +
      'again priced), ignored, or nothing-to-move',
  })
  @IsOptional()
  @IsIn(TRANSFERS_OPTIONS as unknown as string[])
  transfers?: TransfersOption;

  @ApiPropertyOptional({
    enum: PREDICTOR_CHOICES,
    default: SOLVE_DEFAULTS.predictor,
    description:
      'how stages that give neither work nor durationSeconds get their durations, from your execution history (POSUM): basic (mean runtime of ' +
      'your recent jobs\' tasks of the same kind), standard (seconds per input byte, keyed by the job\'s mapClass / reduceClass), detailed ' +
      '(local map rate; reduce shuffle, merge and reduce phases), auto (the most detailed with at least 5 samples)',
  })
  @IsOptional()
  @IsIn(PREDICTOR_CHOICES as unknown as string[])
  predictor?: PredictorChoice;

  @ApiPropertyOptional({ minimum: 0, description: "strategy portfolio: weight of V_D in POSUM's Eq. 5 (default: the tenant's, set by the operator, else 1)" })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  alpha?: number;

  @ApiPropertyOptional({ minimum: 0, description: "strategy portfolio: weight of S_B in POSUM's Eq. 5 (default: the tenant's, else 1)" })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  beta?: number;

  @ApiPropertyOptional({ minimum: 0, description: "strategy portfolio: weight of C in POSUM's Eq. 5 (default: the tenant's, else 1)" })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  gamma?: number;
}


export class SolveProgressDto {
  @ApiProperty({ description: 'since a worker took the solve; rewritten at least once a second while it runs (a heartbeat)' }) elapsedMs!: number;
  @ApiPropertyOptional({ enum: ['starting', 'searching', 'finishing', 'done'], description: 'starting: loading the instance; searching; finishing: bounds, placement and the evaluator; done' })
  phase?: string;
  @ApiProperty() iterations!: number;
  @ApiProperty({ description: 'best objective so far: scheduled tasks (more is better; 0 with makespanSlots 0: nothing found yet) ...' }) scheduledTasks!: number;
  @ApiProperty({ description: '... then makespan in slots (less is better)' }) makespanSlots!: number;
  @ApiPropertyOptional({ type: Number, nullable: true, description: 'a lower bound on the makespan of every job, once known' }) boundSlots?: number | null;
  @ApiPropertyOptional({ type: Number, nullable: true, description: '(makespan - bound) / bound when every task is scheduled, else null' }) gap?: number | null;
}

export class SolveDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: SOLVE_KINDS, description: 'solve: a plan of a batch or an instance (createSolve); replan: a running plan re-planned (replanPlan), its plan supersedes that plan' })
  kind!: SolveKind;
  @ApiProperty({ enum: SOLVE_STATUSES }) status!: SolveStatus;
  @ApiProperty() strategy!: string;
  @ApiProperty({ enum: OBJECTIVES }) objective!: Objective;
  @ApiProperty({ format: 'date-time', description: 'wall-clock time of slot 0 of the plan' }) startsAt!: string;
  @ApiProperty({ type: [String], description: 'what the caller should know about how the solve was set up (a stale forecast it allowed); empty: nothing' }) warnings!: string[];
  @ApiProperty() timeBudgetMs!: number;
  @ApiPropertyOptional({ type: ScoreWeightsDto, nullable: true, description: 'strategy portfolio: the alpha, beta, gamma its members were weighed with (the request\'s, else the tenant\'s default); null for other strategies' })
  scoreWeights!: ScoreWeightsDto | null;
  @ApiProperty() seed!: number;
  @ApiProperty({ description: "whether the reduces were asked to be placed again over the links after the search (a priced plan moves none: the plan's stats.shuffleAware says what it did)" }) shuffleAware!: boolean;
  @ApiProperty({ enum: TRANSFERS_OPTIONS, description: "whether the plan was asked to price each task's fetch (it only matters when data can move); the plan's stats.transfers says what was done" })
  transfers!: TransfersOption;
  @ApiProperty({ enum: PREDICTOR_CHOICES }) predictor!: string;
  @ApiProperty({ type: [StagePredictionDto], nullable: true, description: 'the stages whose durations were predicted; null when none was' }) predictions!: StagePredictionDto[] | null;
  @ApiProperty({ description: 'name of the instance solved' }) instance!: string;
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true }) clusterId!: string | null;
  @ApiPropertyOptional({ type: Number, nullable: true }) clusterVersion!: number | null;
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'the forecast used, named by the request or chosen (forecastChoice)' }) forecastId!: string | null;
  @ApiProperty({ enum: FORECAST_CHOICES, description: FORECAST_CHOICE_DESCRIPTION }) forecastChoice!: ForecastChoice;
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true }) batchId!: string | null;
  @ApiPropertyOptional({ type: SolveProgressDto, nullable: true }) progress!: SolveProgressDto | null;
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'set once a plan is stored (succeeded, or cancelled with a plan)' }) planId!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) error!: string | null;
  @ApiProperty({ type: SolveReplanDto, nullable: true, description: 'a re-plan: how it was set up (now, frozen tasks, tasks run again) and what became of the plan it re-planned; null for a solve' })
  replan!: SolveReplanDto | null;
  @ApiProperty() attempts!: number;
  @ApiProperty() createdAt!: string;
  @ApiPropertyOptional({ type: String, nullable: true }) startedAt!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) finishedAt!: string | null;
}

export class SolvePageDto {
  @ApiProperty({ type: [SolveDto] }) items!: SolveDto[];
  @ApiPropertyOptional({ type: String, nullable: true, description: 'pass as ?cursor= for the next page' }) nextCursor!: string | null;
}
