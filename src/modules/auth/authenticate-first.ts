import type { NextFunction, Request, Response } from 'express';
import { problemBody } from '../common/problem.filter';
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
    const refuse = (status: number, title: string, detail: string, headers: Record<string, string>) => {
      // The unread body is not wanted: close the connection instead of draining it.
      res.status(status).set({ ...headers, Connection: 'close' }).type('application/problem+json');
      res.send(JSON.stringify({ ...problemBody(status, title, detail), instance: req.originalUrl, requestId: (req as Request & { id?: string }).id }));
    };
    (async () => {
      try {
        await limiter.checkFailures(address);
      } catch (e) {
        const p = e as { getStatus(): number; title: string; detail: string; headers: Record<string, string> };
        return refuse(p.getStatus(), p.title, p.detail, p.headers);
      }
      const key = keyFromAuthorization(req.headers.authorization);
      if (key && (await auth.resolve(key))) return next();
      await limiter.recordFailure(address);
      refuse(401, 'Unauthorized', key ? 'the API key is unknown or revoked' : 'send an API key as "Authorization: Bearer <key>"', { 'WWW-Authenticate': 'Bearer' });
    })().catch(next);
  };
}
