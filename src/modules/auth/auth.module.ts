import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyModule } from '../common/idempotency.module';
import { ApiKeyEntity } from './api-key.entity';
import { ApiKeysRepository } from './api-keys.repository';
import { AuthService } from './auth.service';
import { RateLimiter } from './rate-limiter';
import { StreamSlots } from './stream-slots';
import { TenantEntity } from './tenant.entity';
import { TenantsController } from './tenants.controller';
import { TenantsRepository } from './tenants.repository';
import { TenantsService } from './tenants.service';

/**
 * Tenants, API keys and who is calling. Exports what AuthGuard needs (AuthService, RateLimiter, StreamSlots), so the
 * module that registers the guard as APP_GUARD only imports this one, and TenantsService for the tenant's
 * defaults other modules apply (POSUM's score weights); REDIS and CONFIG come from global modules.
 */
@Module({
  imports: [TypeOrmModule.forFeature([TenantEntity, ApiKeyEntity]), IdempotencyModule],
  controllers: [TenantsController],
  providers: [TenantsRepository, ApiKeysRepository, AuthService, RateLimiter, StreamSlots, TenantsService],
  exports: [AuthService, RateLimiter, StreamSlots, TenantsService],
})
export class AuthModule {}
