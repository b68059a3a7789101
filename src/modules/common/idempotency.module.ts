import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyEntity } from './idempotency.entity';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyRepository } from './idempotency.repository';

/**
 * `Idempotency-Key` for creating POSTs. Modules whose controllers use `@UseInterceptors(IdempotencyInterceptor)`
 * import this module. Nest builds such an interceptor inside the controller's module, so the interceptor's
 * own dependency (the repository) is exported too, for that injection only; no other code uses it.
 */
@Module({
  imports: [TypeOrmModule.forFeature([IdempotencyEntity])],
  providers: [IdempotencyRepository, IdempotencyInterceptor],
  exports: [IdempotencyInterceptor, IdempotencyRepository],
})
export class IdempotencyModule {}
