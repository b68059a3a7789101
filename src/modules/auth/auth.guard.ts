import { CanActivate, ExecutionContext, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { Role } from './api-key.entity';
import { AuthService } from './auth.service';
import { authenticate, AuthenticatedRequest } from './authenticate';
import { PUBLIC_KEY, ROLES_KEY } from './principal';
import { ProblemException } from '../common/problem';
import { RateLimiter } from './rate-limiter';
import { EVENT_STREAM_KEY, StreamSlots } from './stream-slots';

/**
 * Every route needs an API key unless marked @Public(); @Roles() narrows who may call it; an @EventStream()
 * handler also needs one of the key's stream slots, given back when its response closes. A request with a
 * body was authenticated before the body was read (authenticate-bodies.ts): its principal is reused here.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
    @Inject(StreamSlots) private readonly streams: StreamSlots,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const targets = [ctx.getHandler(), ctx.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;
    const principal = await authenticate(ctx.switchToHttp().getRequest<AuthenticatedRequest>(), this.auth, this.limiter);
    const roles = this.reflector.getAllAndOverride<Role[]>(ROLES_KEY, targets);
    if (roles && principal.role !== 'operator' && !roles.includes(principal.role))
      throw new ProblemException(HttpStatus.FORBIDDEN, 'Forbidden', `this needs the role ${roles.join(' or ')}; the key has the role ${principal.role}`);
    if (this.reflector.getAllAndOverride<boolean>(EVENT_STREAM_KEY, targets)) {
      const release = await this.streams.acquire(principal.keyId);
      ctx.switchToHttp().getResponse<Response>().once('close', release);
    }
    return true;
  }
}
