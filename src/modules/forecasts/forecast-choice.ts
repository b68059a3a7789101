/**
 * How a run by reference came to its forecast: `request` named it; `newest-covering-start`: none was named and
 * it is the cluster version's newest covering the run's startsAt; `newest`: none was named, none covers the
 * start and the request allowed a stale forecast, so the version's newest is used from its slot 0; `none`: no
 * forecast (idle nodes over the request's horizon, or a whole instance).
 */
export const FORECAST_CHOICES = ['request', 'newest-covering-start', 'newest', 'none'] as const;
export type ForecastChoice = (typeof FORECAST_CHOICES)[number];
export const FORECAST_CHOICE_DESCRIPTION =
  "how the forecast was chosen: request (named by forecastId); newest-covering-start (none named: the cluster version's newest forecast covering startsAt); " +
  'newest (none named and none covering startsAt, allowStaleForecast: the version\'s newest, from its slot 0, with a warning); none (idle nodes over the horizon given, or a whole instance)';
