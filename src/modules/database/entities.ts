import { ApiKeyEntity } from '../auth/api-key.entity';
import { TenantEntity } from '../auth/tenant.entity';
import { BatchEntity } from '../batches/batch.entity';
import { QuotaEntity } from '../quotas/quota.entity';
import { HoldEntity } from '../commitments/hold.entity';
import { ClusterEntity, ClusterVersionEntity } from '../clusters/cluster.entity';
import { ClusterEventEntity } from '../cluster-events/cluster-event.entity';
import { AutoReplanEntity, AutoReplanGateEntity, ReplanningSettingsEntity } from '../replanning/replanning.entity';
import { IdempotencyEntity } from '../common/idempotency.entity';
import { ExecutionEventEntity } from '../executions/execution-event.entity';
import { StageHistoryEntity } from '../executions/stage-history.entity';
import { ForecastBuildEntity } from '../forecast-builds/forecast-build.entity';
import { ForecastEntity } from '../forecasts/forecast.entity';
import { PlanAssignmentEntity, PlanEntity } from '../plans/plan.entity';
import { PlanChartEntity } from '../charts/plan-chart.entity';
import { SimulationEntity } from '../simulations/simulation.entity';
import { SolveEntity } from '../solves/solve.entity';
import { UsageSampleEntity, UsageSeriesEntity } from '../usage/usage.entity';
import { WebhookDeliveryEntity, WebhookSubscriptionEntity } from '../webhooks/webhook.entity';

export const ENTITIES = [
  TenantEntity,
  ApiKeyEntity,
  ClusterEntity,
  ClusterVersionEntity,
  ForecastEntity,
  BatchEntity,
  SolveEntity,
  PlanEntity,
  PlanAssignmentEntity,
  PlanChartEntity,
  IdempotencyEntity,
  ExecutionEventEntity,
  StageHistoryEntity,
  UsageSeriesEntity,
  UsageSampleEntity,
  ForecastBuildEntity,
  SimulationEntity,
  HoldEntity,
  QuotaEntity,
  ClusterEventEntity,
  ReplanningSettingsEntity,
  AutoReplanEntity,
  AutoReplanGateEntity,
  WebhookSubscriptionEntity,
  WebhookDeliveryEntity,
];
