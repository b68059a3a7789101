/** Task runtime prediction from execution history (POSUM, seeds/002 section IV). */
export * from './stats';
export * from './predictors';
export * from './fill';
