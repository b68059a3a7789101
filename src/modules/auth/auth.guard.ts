import { CanActivate, ExecutionContext, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Role } from './api-key.entity';
import { AuthService } from './auth.service';
import { keyFromAuthorization } from './keys';
import { PUBLIC_KEY, ROLES_KEY } from './principal';
import { ProblemException } from '../common/problem';
import { RateLimiter } from './rate-limiter';

export const NO_KEY = 'send an API key as "Authorization: Bearer <key>"';
export const UNKNOWN_KEY = 'the API key is unknown or revoked';

/** Every route needs an API key unless marked @Public(); @Roles() narrows who may call it. */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const targets = [ctx.getHandler(), ctx.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;
    const req = ctx.switchToHttp().getRequest();
    const address = String(req.ip ?? req.socket?.remoteAddress ?? 'unknown');
    await this.limiter.checkFailures(address);
    const key = keyFromAuthorization(req.headers.authorization);
    if (!key) {
      await this.limiter.recordFailure(address);
      throw unauthorized(NO_KEY);
    }
    const principal = await this.auth.resolve(key);
    if (!principal) {
      await this.limiter.recordFailure(address);
      throw unauthorized(UNKNOWN_KEY);
    }
    req.principal = principal;
    await this.limiter.check(principal.keyId);
    const roles = this.reflector.getAllAndOverride<Role[]>(ROLES_KEY, targets);
    if (roles && principal.role !== 'operator' && !roles.includes(principal.role))
      throw new ProblemException(HttpStatus.FORBIDDEN, 'Forbidden', `this needs the role ${roles.join(' or ')}; the key has the role ${principal.role}`);
    return true;
  }
}

/** The 401 of a request without a valid key (also sent before the body is read: authenticate-first.ts). */
export function unauthorized(detail: string): ProblemException {
  return new ProblemException(HttpStatus.UNAUTHORIZED, 'Unauthorized', detail, [], { 'WWW-Authenticate': 'Bearer' });
}
