import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { POSUM_ALLOCATIONS, POSUM_ALLOCATION_DEFAULTS } from '../../engine/policies/posum/allocation';
import { LOOK_AHEAD_MODES, LS_MEMBER, PORTFOLIO_DEFAULTS, REBUILD_LOOK_AHEAD_SECONDS, REPLAY_LOOK_AHEAD_SECONDS } from '../../engine/policies/posum/params';
import { PROVISIONING_NAMES } from '../../engine/policies/posum/provisioning';
import { QOS_NAMES } from '../../engine/qos';
import { DEFAULT_SIMULATION_LIMITS as LIMITS } from '../../engine/model/admission';
import { HorizonDto } from '../common/format.dto';
import { FORECAST_CHOICE_DESCRIPTION, FORECAST_CHOICES, ForecastChoice } from '../forecasts/forecast-choice';
import { ACTUAL_SOURCES, ActualSource, SIMULATION_STATUSES, SimulationStatus } from './simulation.entity';
import { PLAN_SIMULATION_DEFAULTS, POLICY_SIMULATION_DEFAULTS } from './simulation-defaults';
import { SIMULATED_POLICIES } from './policy-choices';

const QOS_DESCRIPTION =
  'the QoS controller: salamander throttles CPU and kills for RAM (Salamander Alg. 3), cuckoo as Cuckoo III-D states it (throttles CPU, kills the largest memory users until the whole safety margin is free, kills every task when only the margin is left), cuckoo-salamander-reading as Salamander describes the Cuckoo controller (kills for any metric, CPU included: its RQ3 baseline), none never kills';

const USAGE_SCHEMA = {
  type: 'object',
  additionalProperties: { type: 'object', additionalProperties: { type: 'array', items: { type: 'number', minimum: 0, maximum: 1 } } },
} as const;

/* Checked by simulationIssues and the simulator's validateActualUsage so that every problem is reported at once; `@Allow()` lets the fields through the whitelist. */
export class CreateSimulationDto {
  @ApiPropertyOptional({
    ...USAGE_SCHEMA,
    example: { h01: { cpu: [0.6, 0.7, 0.9, 0.5], ram: [0.3, 0.4, 0.5, 0.2] } },
    description:
      'the regular customers\' actual utilisation, node -> metric -> one fraction in [0, 1] per slot of the plan\'s window (the shape of the ' +
      'instance\'s usage; nodes and metrics left out are idle). Not with actualForecastId; without either the plan\'s own forecast is replayed.',
  })
  @Allow()
  actualUsage?: Record<string, Record<string, number[]>>;

  @ApiPropertyOptional({ format: 'uuid', description: 'a forecast of the plan\'s cluster (same slot length, at least the window\'s slots) whose usage is replayed as the actual utilisation' })
  @Allow()
  actualForecastId?: string;

  @ApiPropertyOptional({ enum: QOS_NAMES, default: PLAN_SIMULATION_DEFAULTS.qos, description: QOS_DESCRIPTION })
  @Allow()
  qos?: string;

  @ApiPropertyOptional({
    type: 'number',
    minimum: LIMITS.minQosPeriodSeconds,
    default: PLAN_SIMULATION_DEFAULTS.qosPeriodSeconds,
    description:
      'how often the QoS controller checks each node, in simulated seconds, at most the slot length (which checks once per slot; the default is the slot length when that is shorter); between slots the actual load moves linearly from one slot\'s value to the next. ' +
      'The minimum is the service\'s FALLOW_MIN_QOS_PERIOD_SECONDS (default shown)',
  })
  @Allow()
  qosPeriodSeconds?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 2 ** 31 - 1, default: PLAN_SIMULATION_DEFAULTS.seed, description: 'random seed of the simulation (kills, runtime spread)' })
  @Allow()
  seed?: number;

  @ApiPropertyOptional({
    type: 'number',
    minimum: 0,
    exclusiveMinimum: true,
    maximum: 1,
    default: PLAN_SIMULATION_DEFAULTS.reduceSlowstart,
    description:
      'Hadoop\'s reduce slow start: a stage after others may launch once this share of each earlier stage\'s tasks has ended, and fetches ' +
      'their output as they end (the shuffle overlaps the maps; its containers are held meanwhile). 1 keeps the strict barrier.',
  })
  @Allow()
  reduceSlowstart?: number;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'object', additionalProperties: { type: 'number', exclusiveMinimum: true, minimum: 0 } },
    example: { j1: { map: 14.5 } },
    description:
      'what tasks really take, job -> stage -> seconds per task on a node of speed 1, where it differs from the instance (a plan solved on ' +
      'predicted durations replayed against the truth)',
  })
  @Allow()
  trueSeconds?: Record<string, Record<string, number>>;

  @ApiPropertyOptional({ type: 'number', minimum: 0, maximum: 3, default: PLAN_SIMULATION_DEFAULTS.runtimeSigma, description: 'each task\'s runtime is multiplied by a lognormal factor of mean 1 and this log-scale spread, drawn from the seed' })
  @Allow()
  runtimeSigma?: number;
}

/** An online policy run on a cluster, batch and forecast (the ACO-BP comparison's baselines and ACO-BP itself). */
export class CreatePolicySimulationDto extends CreateSimulationDto {
  @ApiProperty({
    enum: SIMULATED_POLICIES,
    description:
      'hadoop (FIFO, fixed slots), cuckoo, fair (Fair Scheduler with delay scheduling), fair-nodelay, rws, hmjs, aco-bp; one of POSUM\'s ' +
      'allocation policies edls-sh, edls-pr, hsrtf, locf (with `provision`: one portfolio member); or posum, the portfolio of all 16',
  })
  @Allow()
  policy!: string;

  // The same field as a plan replay's, documented again for its different default.
  @ApiPropertyOptional({ enum: QOS_NAMES, default: POLICY_SIMULATION_DEFAULTS.qos, description: QOS_DESCRIPTION })
  @Allow()
  declare qos?: string;

  @ApiPropertyOptional({ enum: PROVISIONING_NAMES, description: 'a provisioning policy leasing the cluster\'s `lease` nodes while the policy runs: plus-x, minus-x, dlx or maxbsd (POSUM\'s); none: no nodes are leased' })
  @Allow()
  provision?: string;

  @ApiPropertyOptional({ minimum: 0, maximum: 1, default: POSUM_ALLOCATION_DEFAULTS.delta, description: 'POSUM\'s delta: the importance of deadline jobs (EDLS-Sh share, EDLS-Pr probability)' })
  @Allow()
  delta?: number;

  @ApiPropertyOptional({ minimum: 0, description: "F_c weight of V_D (Eq. 5); default: the tenant's (PUT /v1/tenants/{id}/score-weights), else 1" }) @Allow() alpha?: number;
  @ApiPropertyOptional({ minimum: 0, description: "F_c weight of S_B; default: the tenant's, else 1" }) @Allow() beta?: number;
  @ApiPropertyOptional({ minimum: 0, description: "F_c weight of C; default: the tenant's, else 1" }) @Allow() gamma?: number;

  @ApiPropertyOptional({ minimum: LIMITS.minPolicyPeriodSeconds, default: PORTFOLIO_DEFAULTS.periodSeconds, description: 'posum: seconds between two decisions; the minimum is the service\'s FALLOW_MIN_POLICY_PERIOD_SECONDS (default shown)' })
  @Allow()
  periodSeconds?: number;

  @ApiPropertyOptional({
    exclusiveMinimum: true,
    minimum: 0,
    maximum: LIMITS.maxLookAheadSeconds,
    description:
      `posum: seconds each member is simulated over at a decision. Default: ${REPLAY_LOOK_AHEAD_SECONDS} with lookAheadMode replay (in practice until the submitted work is done: a replay stops when no task is left), ${REBUILD_LOOK_AHEAD_SECONDS} with rebuild. ` +
      `At most FALLOW_MAX_LOOK_AHEAD_SECONDS, and with rebuild at least FALLOW_MIN_REBUILD_LOOK_AHEAD_SECONDS (defaults ${LIMITS.maxLookAheadSeconds} and ${LIMITS.minRebuildLookAheadSeconds})`,
  })
  @Allow()
  lookAheadSeconds?: number;

  @ApiPropertyOptional({ default: PORTFOLIO_DEFAULTS.lsMember, description: 'posum: Fallow\'s ls joins as a seventeenth member (plans the present, followed as a priority when chosen)' })
  @Allow()
  lsMember?: boolean;

  @ApiPropertyOptional({ description: 'posum: the look-ahead also expects the last look-ahead\'s arrivals to repeat (false: the queue alone, as the paper). Default: false with lookAheadMode replay, true with rebuild' })
  @Allow()
  echoArrivals?: boolean;

  @ApiPropertyOptional({ default: PORTFOLIO_DEFAULTS.decideOnArrival, description: 'posum: decide also when a job is submitted (once an instant), not only every periodSeconds (false: every period only, as the paper)' })
  @Allow()
  decideOnArrival?: boolean;

  @ApiPropertyOptional({
    enum: LOOK_AHEAD_MODES,
    default: PORTFOLIO_DEFAULTS.lookAheadMode,
    description: 'posum: how each look-ahead starts from the present. replay: the workload submitted so far runs again from time 0 with the load observed so far and POSUM\'s past choices, reaching the live state exactly; rebuild: the present as a new instance (running tasks as load). lsMember needs rebuild (its default then)',
  })
  @Allow()
  lookAheadMode?: 'replay' | 'rebuild';

  @ApiProperty({ format: 'uuid', description: 'the cluster (a lendable one, or your own)' })
  @Allow()
  clusterId!: string;

  @ApiProperty({ format: 'uuid', description: 'your batch of jobs' })
  @Allow()
  batchId!: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description:
      "a forecast of the cluster: the regular load the policy sees as the instance usage, from the slot of startsAt (and the window, unless horizon is given). " +
      "Default: the cluster version's newest forecast covering startsAt (forecastId and forecastChoice say which); none covering it is a 422 naming forecastId. With a horizon and no forecastId the nodes are idle",
  })
  @Allow()
  forecastId?: string;

  @ApiPropertyOptional({ format: 'date-time', example: '2030-01-01T00:00:00Z', description: 'wall-clock time of slot 0 of the run (default: when the simulation is created): the forecast is used from its slot for that time' })
  @Allow()
  startsAt?: string;

  @ApiPropertyOptional({
    default: false,
    description:
      "run with a forecast whose window does not contain startsAt (from its slot 0; a forecast built from history ends where its history ends), with a warning in the simulation, instead of a 422; without forecastId, when none covers startsAt, the cluster version's newest forecast",
  })
  @Allow()
  allowStaleForecast?: boolean;

  @ApiPropertyOptional({ type: HorizonDto, description: 'the window; required without a forecast' })
  @Allow()
  horizon?: HorizonDto;
}

export class JobRunDto {
  @ApiProperty() id!: string;
  @ApiProperty() accepted!: boolean;
  @ApiProperty({ description: 'seconds to stage the job\'s chunks on their nodes before it starts' }) stagingSeconds!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'when its last task ended, seconds from slot 0; null when rejected or unfinished' }) endSeconds!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'stagingSeconds + endSeconds - release' }) executionSeconds!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'endSeconds - release' }) computeSeconds!: number | null;
  @ApiProperty({ type: Number, nullable: true }) deadlineSeconds!: number | null;
  @ApiProperty({ type: Boolean, nullable: true, description: 'null when rejected' }) onTime!: boolean | null;
  @ApiProperty({ description: 'revenue.onTime when on time, revenue.late otherwise, 0 when rejected (the job\'s own units)' }) revenue!: number;
  @ApiPropertyOptional({ description: 'times its tasks were killed, each relaunched (reports stored before it was added lack it)' }) kills?: number;
  @ApiPropertyOptional({ description: 'its tasks whose successful run read their chunk from another node (reports stored before it was added lack it)' }) remoteTasks?: number;
}

export class MinMedianMaxDto {
  @ApiProperty() min!: number;
  @ApiProperty() median!: number;
  @ApiProperty() max!: number;
}

export class UtilisationSeriesDto {
  @ApiProperty({ type: [Number], description: 'sample times, seconds from slot 0' }) seconds!: number[];
  @ApiProperty({ type: 'object', additionalProperties: { type: 'array', items: { type: 'number' } }, description: 'metric -> used share at each sample' }) used!: Record<string, number[]>;
}

export class LocalityDto {
  @ApiProperty() nodeLocal!: number;
  @ApiProperty() rackLocal!: number;
  @ApiProperty() remote!: number;
}

/** The simulator's report: what `fallow simulate` prints. */
export class PosumScoreDto {
  @ApiProperty({ description: 'V_D: squared deadline violations of deadline-class jobs, seconds^2, over their count' }) vd!: number;
  @ApiProperty({ description: 'S_B: sum of the bounded slowdowns of the other jobs' }) sb!: number;
  @ApiProperty({ description: 'C: node uptime hours x costPerHour' }) c!: number;
}

export class MemberScoreDto {
  @ApiProperty({ enum: [...POSUM_ALLOCATIONS, LS_MEMBER.allocation], description: 'a POSUM allocation policy, or ls-plan: the ls member (lsMember)' }) allocation!: string;
  @ApiProperty({ enum: PROVISIONING_NAMES }) provisioning!: string;
  @ApiProperty() vd!: number;
  @ApiProperty() sb!: number;
  @ApiProperty() c!: number;
  @ApiProperty({ description: 'weighted distance to the best value of each component over the members (the choice is the least)' }) distance!: number;
}

export class MemberDto {
  @ApiProperty() allocation!: string;
  @ApiProperty() provisioning!: string;
}

export class DecisionDto {
  @ApiProperty({ description: 'seconds from slot 0' }) timeSeconds!: number;
  @ApiProperty({ type: [MemberScoreDto], description: 'each member simulated from that moment over the look-ahead' }) scores!: MemberScoreDto[];
  @ApiProperty({ type: MemberDto }) choice!: MemberDto;
  @ApiProperty({ enum: ['period', 'arrival'], description: "what called the decision: the period's timer, or a job's submission (decideOnArrival); one decision an instant" })
  trigger!: 'period' | 'arrival';
  @ApiProperty() elapsedMs!: number;
}

export class SimReportDto {
  @ApiProperty({ enum: ['plan', 'policy'] }) mode!: 'plan' | 'policy';
  @ApiProperty() driver!: string;
  @ApiProperty() qos!: string;
  @ApiProperty() seed!: number;
  @ApiProperty() reduceSlowstart!: number;
  @ApiPropertyOptional({ description: 'how often the QoS controller checked each node, simulated seconds (absent from reports made before the period existed: once per slot)' }) qosPeriodSeconds?: number;
  @ApiProperty({ type: PosumScoreDto, description: 'POSUM\'s P = (V_D, S_B, C) of the run (Table I)' }) score!: PosumScoreDto;
  @ApiPropertyOptional({ description: 'policy runs: F_c (Eq. 5) of the score against (0, 0, 0) with the run\'s alpha, beta, gamma' }) fc?: number;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'policy runs: the provisioning policy (posum: its members\')' }) provisioning?: string | null;
  @ApiPropertyOptional({ type: [DecisionDto], description: 'posum: every decision' }) decisions?: DecisionDto[];
  @ApiProperty({ description: 'latest task end, seconds from slot 0' }) makespanSeconds!: number;
  @ApiProperty({ type: MinMedianMaxDto, description: 'over accepted jobs that finished' }) jobExecutionSeconds!: MinMedianMaxDto;
  @ApiProperty({ description: 'kills / tasks of accepted jobs, in %' }) relaunchedTaskPct!: number;
  @ApiProperty({ description: 'tasks whose successful run read its chunk from another node, in %' }) remoteTaskPct!: number;
  @ApiProperty() bytesMoved!: number;
  @ApiProperty() placementBytes!: number;
  @ApiProperty() remoteBytes!: number;
  @ApiProperty() deadlineMisses!: number;
  @ApiProperty() revenue!: number;
  @ApiProperty({ description: 'node-slots where the tasks held more of an incompressible metric than the regular customers left' }) interferenceSlots!: number;
  @ApiProperty() tasks!: number;
  @ApiProperty() relaunches!: number;
  @ApiProperty({ description: 'relaunches because an attempt got no CPU at all for 600 s (Hadoop\'s task timeout)' }) stalledTasks!: number;
  @ApiProperty() remoteTasks!: number;
  @ApiProperty() rejectedJobs!: number;
  @ApiProperty() unfinishedJobs!: number;
  @ApiProperty() events!: number;
  @ApiProperty() elapsedMs!: number;
  @ApiProperty({ type: [JobRunDto] }) jobs!: JobRunDto[];
  @ApiProperty({ type: UtilisationSeriesDto, description: 'share of the cluster\'s capacity the batch held, per metric, every 10 s' }) utilisation!: UtilisationSeriesDto;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'number' }, description: 'ACO-BP Eq. 2 per node, averaged over the samples' }) ruByNode!: Record<string, number>;
  @ApiProperty({ description: "Jain's fairness index over the finished jobs of (lower bound alone) / latency: 1 when every job is slowed alike" }) jainFairness!: number;
  @ApiProperty({ type: LocalityDto, nullable: true, description: 'where tasks with given blocks ran; null without blocks' }) locality!: LocalityDto | null;
}

export class SimulationDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'the plan replayed; null for a policy simulation' }) planId!: string | null;
  @ApiProperty({ type: String, enum: SIMULATED_POLICIES, nullable: true, description: 'the online policy run; null for a plan replay' }) policy!: string | null;
  @ApiProperty({ enum: SIMULATION_STATUSES }) status!: SimulationStatus;
  @ApiProperty({ enum: QOS_NAMES }) qos!: string;
  @ApiProperty({ type: 'integer' }) seed!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'how often the QoS controller checks each node, simulated seconds; null: a simulation from before the period existed, checked once per slot' }) qosPeriodSeconds!: number | null;
  @ApiProperty({ description: 'share of a stage\'s predecessor tasks that must end before it may launch (1: the strict barrier)' }) reduceSlowstart!: number;
  @ApiProperty({ type: 'object', nullable: true, additionalProperties: { type: 'object', additionalProperties: { type: 'number' } }, description: 'true seconds per task where they differ from the instance' })
  trueSeconds!: Record<string, Record<string, number>> | null;
  @ApiProperty({ description: 'lognormal spread of task runtimes (0: none)' }) runtimeSigma!: number;
  @ApiProperty({ type: String, nullable: true, description: 'policy runs: the provisioning policy leasing nodes' }) provision!: string | null;
  @ApiProperty({ type: 'object', nullable: true, additionalProperties: true, description: 'policy runs: POSUM\'s parameters (periods, look-ahead, weights, delta, provisioning)' }) posum!: Record<string, unknown> | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'policy runs: the forecast the instance was assembled with (named by the request or chosen: forecastChoice); null for a plan replay' }) forecastId!: string | null;
  @ApiProperty({ type: String, enum: FORECAST_CHOICES, nullable: true, description: `policy runs: ${FORECAST_CHOICE_DESCRIPTION}; null for a plan replay` }) forecastChoice!: ForecastChoice | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'policy runs: wall-clock time of slot 0 (the forecast is used from its slot for that time); null for a plan replay' }) startsAt!: string | null;
  @ApiProperty({ type: [String], description: 'what the caller should know about how the simulation was set up (a stale forecast it allowed); empty: nothing' }) warnings!: string[];
  @ApiProperty({ enum: ACTUAL_SOURCES, description: 'usage: posted actualUsage; forecast: actualForecastId\'s usage; plan: the plan\'s own forecast taken as actual (a perfect forecast)' })
  actualSource!: ActualSource;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) actualForecastId!: string | null;
  @ApiProperty({ description: 'what was replayed as the actual utilisation, in words' }) actualDescription!: string;
  @ApiProperty({ type: SimReportDto, nullable: true, description: 'once succeeded' }) report!: SimReportDto | null;
  @ApiProperty({ type: String, nullable: true, description: 'why the simulation failed' }) error!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) startedAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) finishedAt!: string | null;
}

export class SimulationPageDto {
  @ApiProperty({ type: [SimulationDto] }) items!: SimulationDto[];
  @ApiPropertyOptional({ type: String, nullable: true }) nextCursor!: string | null;
}
