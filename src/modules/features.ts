import { Provider, Type } from '@nestjs/common';

/** The farmer- and customer-facing resources (clusters, forecasts, batches). */
export const FEATURE_CONTROLLERS: Type<unknown>[] = [];
export const FEATURE_PROVIDERS: Provider[] = [];
