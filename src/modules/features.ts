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

/** The farmer- and customer-facing resources (clusters, forecasts, batches) and execution reports and accounting. */
export const FEATURE_CONTROLLERS: Type<unknown>[] = [ClustersController, ForecastsController, BatchesController, ExecutionsController, AccountingController];
export const FEATURE_PROVIDERS: Provider[] = [ClustersService, ForecastsService, BatchesService, ExecutionsService, AccountingRepository, AccountingService];
