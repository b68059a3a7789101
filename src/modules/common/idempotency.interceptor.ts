import { CallHandler, ExecutionContext, HttpStatus, Injectable, NestInterceptor } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { from, Observable, of, switchMap } from 'rxjs';
import { Repository } from 'typeorm';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Principal } from '../auth/principal';
import { IdempotencyEntity } from './idempotency.entity';
import { ProblemException } from './problem';

/**
 * `Idempotency-Key` on creating POSTs: the first successful response is stored and replayed for a retry
 * with the same key and body; the same key with a different body is a 422. Failed requests are not
 * stored, so a client can fix its request and retry with the same key.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(@InjectRepository(IdempotencyEntity) private readonly rows: Repository<IdempotencyEntity>) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = ctx.switchToHttp().getRequest<Request & { principal?: Principal }>();
    const res = ctx.switchToHttp().getResponse<Response>();
    const key = req.header('idempotency-key');
    if (req.method !== 'POST' || !key || !req.principal) return next.handle();
    if (key.length > 200) throw new ProblemException(HttpStatus.BAD_REQUEST, 'Bad request', 'Idempotency-Key is longer than 200 characters', [{ path: 'header:Idempotency-Key', message: 'at most 200 characters' }]);
    const keyId = req.principal.keyId;
    const requestHash = createHash('sha256').update(`${req.method} ${req.path}\n${JSON.stringify(req.body ?? null)}`).digest('hex');
    return from(this.rows.findOneBy({ keyId, key })).pipe(
      switchMap((seen) => {
        if (seen) {
          if (seen.requestHash !== requestHash)
            throw new ProblemException(HttpStatus.UNPROCESSABLE_ENTITY, 'Idempotency-Key reused', 'this Idempotency-Key was first used with a different request', [{ path: 'header:Idempotency-Key', message: 'already used for a different request' }]);
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
            await this.rows
              .createQueryBuilder()
              .insert()
              .values({ keyId, key, requestHash, statusCode, body: body as object, location: typeof location === 'string' ? location : null })
              .orIgnore()
              .execute();
            return body;
          }),
        );
      }),
    );
  }
}
