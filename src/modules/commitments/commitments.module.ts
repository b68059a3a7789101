import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { HoldEntity } from './hold.entity';
import { HoldsRepository } from './holds.repository';
import { CommitmentsService } from './commitments.service';
import { CommittedPlansRepository } from './committed-plans.repository';

/** Committed plans' holds on clusters (plan_holds): solves read them as `reserved`, commits write them under the cluster's lock, the cluster's schedule lists them. */
@Module({
  imports: [TypeOrmModule.forFeature([HoldEntity])],
  providers: [HoldsRepository, CommittedPlansRepository, CommitmentsService],
  exports: [CommitmentsService],
})
export class CommitmentsModule {}
