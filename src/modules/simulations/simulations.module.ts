import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyModule } from '../common/idempotency.module';
import { ForecastsModule } from '../forecasts/forecasts.module';
import { PlansModule } from '../plans/plans.module';
import { SolvesModule } from '../solves/solves.module';
import { WorkModule } from '../work/work.module';
import { SimulationEntity } from './simulation.entity';
import { SimulationsController } from './simulations.controller';
import { SimulationsRepository } from './simulations.repository';
import { SimulationsService } from './simulations.service';

@Module({
  imports: [TypeOrmModule.forFeature([SimulationEntity]), WorkModule, IdempotencyModule, SolvesModule, PlansModule, ForecastsModule, AuthModule],
  controllers: [SimulationsController],
  providers: [SimulationsRepository, SimulationsService],
  exports: [SimulationsService],
})
export class SimulationsModule {}
