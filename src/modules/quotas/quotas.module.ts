import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { ClustersModule } from '../clusters/clusters.module';
import { QuotaEntity } from './quota.entity';
import { QuotasController } from './quotas.controller';
import { QuotasRepository } from './quotas.repository';
import { QuotasService } from './quotas.service';

/** Per-customer quotas on clusters; solves and commits read them through QuotasService.effective. */
@Module({
  imports: [TypeOrmModule.forFeature([QuotaEntity]), ClustersModule, AuthModule],
  controllers: [QuotasController],
  providers: [QuotasRepository, QuotasService],
  exports: [QuotasService],
})
export class QuotasModule {}
