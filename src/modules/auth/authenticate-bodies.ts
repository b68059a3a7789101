import type { NextFunction, Request, Response } from 'express';
import { hasBody } from '../common/content-type';
import { sendProblem } from '../common/problem.filter';
import { AuthService } from './auth.service';
import { authenticate } from './authenticate';
import { RateLimiter } from './rate-limiter';

/**
 * Mounted before every body parser: a request that carries a body is authenticated before a byte of it is
 * buffered, on every route, so a request without a valid key costs neither the memory nor the time of
 * reading and parsing up to FALLOW_BODY_LIMIT (100 MB on the usage route). No public route takes a body, so
 * a body always needs a key. Requests without a body are authenticated by the guard (public routes pass
 * there). `ownAuth` are paths that check their own credentials before reading a body (the queue board).
 */
export function authenticateBodies(auth: AuthService, limiter: RateLimiter, ownAuth: string[]) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!hasBody(req) || ownAuth.some((p) => req.path === p || req.path.startsWith(`${p}/`))) return next();
    authenticate(req, auth, limiter).then(
      () => next(),
      (e: unknown) => {
        res.setHeader('Connection', 'close'); // the unread body is not wanted: close instead of draining it
        sendProblem(req, res, e);
      },
    );
  };
}
