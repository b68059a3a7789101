import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyModule } from '../common/idempotency.module';
import { ClusterEntity, ClusterVersionEntity } from './cluster.entity';
import { ClustersController } from './clusters.controller';
import { ClustersRepository } from './clusters.repository';
import { ClustersService } from './clusters.service';

/** A farmer's versioned clusters; other modules read them through ClustersService. */
@Module({
  imports: [TypeOrmModule.forFeature([ClusterEntity, ClusterVersionEntity]), IdempotencyModule],
  controllers: [ClustersController],
  providers: [ClustersRepository, ClustersService],
  exports: [ClustersService],
})
export class ClustersModule {}
