import { Provider, Type } from '@nestjs/common';
import { BatchesController } from './batches/batches.controller';
import { BatchesService } from './batches/batches.service';
import { ClustersController } from './clusters/clusters.controller';
import { ClustersService } from './clusters/clusters.service';
import { AccountingController } from './accounting/accounting.controller';
import { AccountingRepository } from './accounting/accounting.repository';
import { AccountingService } from './accounting/accounting.service';
import { ExecutionsController } from './executions/executions.controller';
import { ExecutionsService } from './executions/executions.service';
import { ForecastsController } from './forecasts/forecasts.controller';
import { ForecastsService } from './forecasts/forecasts.service';
import { ForecastBuildsController } from './forecast-builds/forecast-builds.controller';
import { ForecastBuildsService } from './forecast-builds/forecast-builds.service';
import { SimulationsController } from './simulations/simulations.controller';
import { SimulationsService } from './simulations/simulations.service';
import { UsageController } from './usage/usage.controller';
import { UsageRepository } from './usage/usage.repository';
import { UsageService } from './usage/usage.service';

import { ApiKeysRepository } from './auth/api-keys.repository';
import { TenantsRepository } from './auth/tenants.repository';
import { TenantsService } from './auth/tenants.service';
import { BatchesRepository } from './batches/batches.repository';
import { ClustersRepository } from './clusters/clusters.repository';
import { IdempotencyRepository } from './common/idempotency.repository';
import { ExecutionsRepository } from './executions/executions.repository';
import { ForecastsRepository } from './forecasts/forecasts.repository';
import { HealthRepository } from './health/health.repository';
import { HealthService } from './health/health.service';
/** The farmer- and customer-facing resources (clusters, usage, forecasts, batches) execution reports, simulations and accounting. */
export const FEATURE_CONTROLLERS: Type<unknown>[] = [
  ClustersController,
  UsageController,
  ForecastsController,
  ForecastBuildsController,
  BatchesController,
  ExecutionsController,
  AccountingController,
  SimulationsController,
];
export const FEATURE_PROVIDERS: Provider[] = [
  ClustersService,
  UsageRepository,
  UsageService,
  ForecastsService,
  ForecastBuildsService,
  BatchesService,
  ExecutionsService,
  AccountingRepository,
  AccountingService,
  SimulationsService,
  // Temporary, until AppModule imports the feature modules: the providers those modules added.
  IdempotencyRepository,
  TenantsRepository,
  ApiKeysRepository,
  TenantsService,
  ClustersRepository,
  ForecastsRepository,
  BatchesRepository,
  ExecutionsRepository,
  HealthRepository,
  HealthService,
];
