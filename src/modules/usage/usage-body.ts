import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import { Config } from '../../config';

/** POST /v1/clusters/{id}/usage: the one route whose bodies may exceed FALLOW_BODY_LIMIT. */
export const USAGE_ROUTE = /^\/v1\/clusters\/[^/]+\/usage\/?$/;

/**
 * Body parsers of the usage route, mounted before the global JSON parser (which then sees the body already
 * read and skips): JSON up to FALLOW_USAGE_BODY_LIMIT, and text/csv as a string for the CSV form.
 */
export function usageBodyParsers(config: Config): RequestHandler {
  const json = express.json({ limit: config.usageBodyLimit, type: ['application/json', 'application/*+json'] });
  const csv = express.text({ limit: config.usageBodyLimit, type: ['text/csv'] });
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'POST' || !USAGE_ROUTE.test(req.path)) return next();
    json(req, res, (err?: unknown) => (err ? next(err) : csv(req, res, next)));
  };
}
