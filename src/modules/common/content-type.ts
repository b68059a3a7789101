import type { NextFunction, Request, Response } from 'express';
import { ProblemException } from './problem';
import { sendProblem } from './problem.filter';

const JSON_TYPES = ['application/json', 'application/*+json'];

/**
 * A request body the API would not read (anything but JSON; text/csv too on the routes in `csvRoutes`) is a
 * 415 naming the content type, instead of being ignored and the request answered as if its fields were
 * missing. Requests without a body (GET, DELETE, an empty POST) pass.
 */
export function requireJsonBodies(csvRoutes: RegExp) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!hasBody(req) || req.is(JSON_TYPES) || (csvRoutes.test(req.path) && req.is('text/csv'))) return next();
    const given = req.headers['content-type'];
    const accepted = csvRoutes.test(req.path) ? 'application/json or text/csv' : 'application/json';
    sendProblem(
      req,
      res,
      new ProblemException(415, 'Unsupported media type', `the body must be sent as ${accepted}`, [
        { path: 'content-type', message: given ? `must be ${accepted}, got ${JSON.stringify(given)}` : `missing: must be ${accepted}` },
      ]),
    );
  };
}

/** Whether the request carries a body (node's definition: a length above 0 or a chunked transfer). */
export function hasBody(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = Number(req.headers['content-length'] ?? 0);
  return Number.isFinite(length) && length > 0;
}
