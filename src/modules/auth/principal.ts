import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { Role } from './api-key.entity';

/** Who is calling: resolved from the API key on every request. */
export interface Principal {
  keyId: string;
  tenantId: string;
  role: Role;
}

export const ROLES_KEY = 'fallow:roles';
export const PUBLIC_KEY = 'fallow:public';

/** The roles allowed to call a handler (operators are always allowed). */
export const Roles = (...roles: Role[]) => SetMetadata(ROLES_KEY, roles);
/** No API key needed (health, docs, metrics). */
export const Public = () => SetMetadata(PUBLIC_KEY, true);

export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  return ctx.switchToHttp().getRequest().principal;
});

/** The tenant filter for reads: operators see every tenant, everyone else only their own. */
export function tenantScope(p: Principal): { tenantId?: string } {
  return p.role === 'operator' ? {} : { tenantId: p.tenantId };
}

export function canSee(p: Principal, tenantId: string): boolean {
  return p.role === 'operator' || p.tenantId === tenantId;
}
