import { CallHandler, ExecutionContext, HttpStatus, Inject, Injectable, NestInterceptor, SetMetadata } from '@nestjs/common';
import { Config, CONFIG } from '../../config';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Request, Response } from 'express';
import { catchError, from, Observable, of, switchMap } from 'rxjs';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import type { Principal } from '../auth/principal';
import { IdempotencyEntity, PENDING_STATUS } from './idempotency.entity';
import { IdempotencyRepository } from './idempotency.repository';
import { ProblemException } from './problem';

/** How long a retry waits for a twin still in progress before answering 409. */
const WAIT_FOR_TWIN_MS = 15_000;
const POLL_MS = 50;
/** A reservation older than this belongs to a request that died mid-way: a retry may take it over. */
const ABANDONED_AFTER_MS = 120_000;

type Claim = { owner: true } | { owner: false; row: IdempotencyEntity };

const SECRET_FIELDS = 'idempotency:secret-fields';
/**
 * The response's `fields` are secrets (an issued API key): they are never stored, so a retry with the same
 * Idempotency-Key cannot be answered with them and gets a 409 naming what the first request created.
 */
export const SecretInResponse = (...fields: string[]) => SetMetadata(SECRET_FIELDS, fields);

/** JSON with every object's keys sorted: the same body in another field order is the same request. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v ?? null);
}

/**
 * `Idempotency-Key` on creating POSTs: the first successful response is stored and replayed for a retry
 * with the same key and body; the same key with a different body is a 422. The key is reserved (a pending
 * row, unique per API key) before the handler runs, so retries that arrive while the first request is still
 * running wait for its response instead of creating a second resource; a 409 tells them to retry when the
 * first takes longer than WAIT_FOR_TWIN_MS. Failed requests give their reservation back, so a client can
 * fix its request and retry with the same key.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private lastPurge = 0;

  constructor(
    private readonly rows: IdempotencyRepository,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = ctx.switchToHttp().getRequest<Request & { principal?: Principal }>();
    const res = ctx.switchToHttp().getResponse<Response>();
    const key = req.header('idempotency-key');
    if (req.method !== 'POST' || !key || !req.principal) return next.handle();
    if (key.length > 200) throw new ProblemException(HttpStatus.BAD_REQUEST, 'Bad request', 'Idempotency-Key is longer than 200 characters', [{ path: 'header:Idempotency-Key', message: 'at most 200 characters' }]);
    const keyId = req.principal.keyId;
    const requestHash = createHash('sha256').update(`${req.method} ${req.path}\n${canonicalJson(req.body ?? null)}`).digest('hex');
    const secrets: string[] = Reflect.getMetadata(SECRET_FIELDS, ctx.getHandler()) ?? [];
    return from(this.purgeExpired().then(() => this.claim(keyId, key, requestHash))).pipe(
      switchMap((claim) => {
        if (!claim.owner) {
          const seen = claim.row;
          if (secrets.length) throw secretNotReplayed(seen.body as Record<string, unknown>, secrets);
          res.status(seen.statusCode);
          if (seen.location) res.setHeader('Location', seen.location);
          res.setHeader('Idempotent-Replayed', 'true');
          return of(seen.body);
        }
        return next.handle().pipe(
          switchMap(async (body) => {
            const location = res.getHeader('Location');
            // @HttpCode is applied after interceptors run, so read it from the handler's metadata.
            const statusCode: number = Reflect.getMetadata(HTTP_CODE_METADATA, ctx.getHandler()) ?? HttpStatus.CREATED;
            // A secret of the response is never at rest: what is stored says only that it was issued.
            const stored = secrets.length ? Object.fromEntries(Object.entries(body as object).filter(([k]) => !secrets.includes(k))) : (body as object);
            await this.rows.complete(keyId, key, { statusCode, body: stored, location: typeof location === 'string' ? location : null });
            return body;
          }),
          catchError(async (e: unknown) => {
            await this.rows.release(keyId, key);
            throw e;
          }),
        );
      }),
    );
  }

  /** Stored responses expire after FALLOW_IDEMPOTENCY_TTL_HOURS; swept at most once a minute per process. */
  private async purgeExpired(): Promise<void> {
    if (Date.now() - this.lastPurge < 60_000) return;
    this.lastPurge = Date.now();
    await this.rows.purgeOlderThan(new Date(Date.now() - this.config.idempotencyTtlHours * 3600_000));
  }

  /**
   * Reserves the key for this request, or returns the finished response of the request that holds it
   * (waiting while it runs). Throws 422 for a key first used with another body, 409 when the twin is
   * still running after the wait.
   */
  private async claim(keyId: string, key: string, requestHash: string): Promise<Claim> {
    const waitUntil = Date.now() + WAIT_FOR_TWIN_MS;
    for (;;) {
      if (await this.rows.reserve(keyId, key, requestHash)) return { owner: true };
      const seen = await this.rows.find(keyId, key);
      if (!seen) continue; // the holder failed and gave the key back: try to reserve it again
      const expiredBefore = new Date(Date.now() - this.config.idempotencyTtlHours * 3600_000);
      if (seen.createdAt < expiredBefore) {
        await this.rows.purgeOlderThan(expiredBefore); // an expired response: the key is free again
        continue;
      }
      if (seen.requestHash !== requestHash)
        throw new ProblemException(HttpStatus.UNPROCESSABLE_ENTITY, 'Idempotency-Key reused', 'this Idempotency-Key was first used with a different request', [{ path: 'header:Idempotency-Key', message: 'already used for a different request' }]);
      if (seen.statusCode !== PENDING_STATUS) return { owner: false, row: seen };
      if (Date.now() - seen.createdAt.getTime() > ABANDONED_AFTER_MS) {
        await this.rows.release(keyId, key, seen.createdAt);
        continue;
      }
      if (Date.now() >= waitUntil)
        throw new ProblemException(HttpStatus.CONFLICT, 'Request in progress', 'a request with this Idempotency-Key is still being processed; retry later', [{ path: 'header:Idempotency-Key', message: 'in progress' }]);
      await sleep(POLL_MS);
    }
  }
}

function secretNotReplayed(stored: Record<string, unknown>, secrets: string[]): ProblemException {
  const what = stored.id ? ` (id ${String(stored.id)})` : '';
  return new ProblemException(
    HttpStatus.CONFLICT,
    'Secret not replayed',
    `this Idempotency-Key already created the resource${what}; its ${secrets.join(', ')} is never stored, so it cannot be sent again: if it was lost, revoke it and issue a new one`,
    [{ path: 'header:Idempotency-Key', message: 'already used; the secret of its response is not replayed' }],
  );
}
