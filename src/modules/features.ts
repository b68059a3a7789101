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
];
