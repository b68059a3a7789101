import { HttpStatus } from '@nestjs/common';
import type { Request } from 'express';
import { ProblemException } from '../common/problem';
import { AuthService } from './auth.service';
import { keyFromAuthorization } from './keys';
import { Principal } from './principal';
import { RateLimiter } from './rate-limiter';

export const NO_KEY = 'send an API key as "Authorization: Bearer <key>"';
export const UNKNOWN_KEY = 'the API key is unknown or revoked';

/** A request once authenticated: the principal is kept so that the guard does not look the key up twice. */
export type AuthenticatedRequest = Request & { principal?: Principal };

/**
 * Who is calling, or a 401/429: the source address's failures first (a limited address costs no lookup),
 * then the key, then the key's own rate limit. Runs once per request: before the body is read for requests
 * that carry one (authenticate-bodies.ts), in the guard for the others.
 */
export async function authenticate(req: AuthenticatedRequest, auth: AuthService, limiter: RateLimiter): Promise<Principal> {
  if (req.principal) return req.principal;
  const address = clientAddress(req);
  await limiter.checkFailures(address);
  const key = keyFromAuthorization(req.headers.authorization);
  const principal = key ? await auth.resolve(key) : undefined;
  if (!principal) {
    await limiter.recordFailure(address);
    throw unauthorized(key ? UNKNOWN_KEY : NO_KEY);
  }
  await limiter.check(principal.keyId);
  req.principal = principal;
  return principal;
}

/**
 * The address failures are counted against: express's req.ip, which is the socket's address unless the
 * operator named trusted proxies (FALLOW_TRUSTED_PROXIES); only then does X-Forwarded-For count, and only
 * the part those proxies appended.
 */
export function clientAddress(req: Request): string {
  return String(req.ip ?? req.socket?.remoteAddress ?? 'unknown');
}

/** The 401 of a request without a valid key. */
export function unauthorized(detail: string): ProblemException {
  return new ProblemException(HttpStatus.UNAUTHORIZED, 'Unauthorized', detail, [], { 'WWW-Authenticate': 'Bearer' });
}
