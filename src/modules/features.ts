import { Provider, Type } from '@nestjs/common';
import { BatchesController } from './batches/batches.controller';
import { BatchesService } from './batches/batches.service';
import { ClustersController } from './clusters/clusters.controller';
import { ClustersService } from './clusters/clusters.service';
import { ForecastsController } from './forecasts/forecasts.controller';
import { ForecastsService } from './forecasts/forecasts.service';

/** The farmer- and customer-facing resources (clusters, forecasts, batches). */
export const FEATURE_CONTROLLERS: Type<unknown>[] = [ClustersController, ForecastsController, BatchesController];
export const FEATURE_PROVIDERS: Provider[] = [ClustersService, ForecastsService, BatchesService];
