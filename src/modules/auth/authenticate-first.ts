import type { NextFunction, Request, Response } from 'express';
import { sendProblem } from '../common/problem.filter';
import { NO_KEY, unauthorized, UNKNOWN_KEY } from './auth.guard';
import { AuthService } from './auth.service';
import { keyFromAuthorization } from './keys';
import { RateLimiter } from './rate-limiter';

/**
 * For routes whose bodies may be large (bulk usage history, up to FALLOW_USAGE_BODY_LIMIT): the API key is
 * checked BEFORE the body is read, so a request without a valid key costs neither the memory nor the time
 * of reading and parsing 100 MB. The guard checks again (roles, rate limit) once the body is in.
 */
export function authenticateFirst(route: RegExp, auth: AuthService, limiter: RateLimiter) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'POST' || !route.test(req.path)) return next();
    const address = String(req.ip ?? req.socket.remoteAddress ?? 'unknown');
    const refuse = (e: unknown) => {
      res.setHeader('Connection', 'close'); // the unread body is not wanted: close instead of draining it
      sendProblem(req, res, e);
    };
    (async () => {
      try {
        await limiter.checkFailures(address);
      } catch (e) {
        return refuse(e);
      }
      const key = keyFromAuthorization(req.headers.authorization);
      if (key && (await auth.resolve(key))) return next();
      await limiter.recordFailure(address);
      refuse(unauthorized(key ? UNKNOWN_KEY : NO_KEY));
    })().catch(next);
  };
}
