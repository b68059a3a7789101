import { Issue } from '../../engine/model/types';
import { Principal } from '../auth/principal';
import type { Role } from '../auth/api-key.entity';
import { invalid, notFound } from '../common/problem';
import { Period, PERIODS, TimeRange } from './periods';

export const BASES = ['plan', 'actual', 'simulated'] as const;
export type Basis = (typeof BASES)[number];
export const FORMATS = ['json', 'csv'] as const;
export type Format = (typeof FORMATS)[number];

export interface AccountingQuery {
  range: TimeRange;
  period: Period;
  basis: Basis;
  format: Format;
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** The query string of every accounting report, with every problem reported at once (paths `query:<name>`). */
export function parseAccountingQuery(q: { from?: string; to?: string; period?: string; basis?: string; format?: string }): AccountingQuery {
  const issues: Issue[] = [];
  const time = (name: 'from' | 'to'): Date | undefined => {
    const raw = q[name];
    if (raw === undefined || raw === '') return undefined;
    const d = new Date(raw);
    if (!ISO_DATE_TIME.test(raw) || Number.isNaN(d.getTime())) issues.push({ path: `query:${name}`, message: `must be an ISO 8601 date-time with a zone, e.g. 2030-01-31T00:00:00Z; got "${raw}"` });
    return d;
  };
  const oneOf = <T extends string>(name: 'period' | 'basis' | 'format', allowed: readonly T[], fallback: T): T => {
    const raw = q[name];
    if (raw === undefined || raw === '') return fallback;
    if (!allowed.includes(raw as T)) issues.push({ path: `query:${name}`, message: `must be one of ${allowed.join(', ')}; got "${raw}"` });
    return raw as T;
  };
  const from = time('from');
  const to = time('to');
  const period = oneOf('period', PERIODS, 'day');
  const basis = oneOf('basis', BASES, 'plan');
  const format = oneOf('format', FORMATS, 'json');
  if (!issues.length && from && to && from.getTime() >= to.getTime()) issues.push({ path: 'query:to', message: 'must be after from (from is inclusive, to exclusive)' });
  if (issues.length) throw invalid(issues);
  return { range: { from, to }, period, basis, format };
}

/**
 * Whose report: a farmer or customer sees only itself (asking for another tenant is a 404, as for anything
 * it cannot see); an operator names the tenant.
 */
export function reportSubject(p: Principal, role: Exclude<Role, 'operator'>, requested: string | undefined, param: string): string {
  if (p.role === 'operator') {
    if (!requested) throw invalid([{ path: `query:${param}`, message: 'required for an operator: the tenant whose report to show' }]);
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(requested)) throw invalid([{ path: `query:${param}`, message: 'must be a tenant id (UUID)' }]);
    return requested;
  }
  if (requested !== undefined && requested !== p.tenantId) throw notFound(role, requested);
  return p.tenantId;
}
