import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { newestFirst } from '../common/keyset-page';
import { SimulationEntity } from './simulation.entity';

/** Reads of simulations (every status change is the long-work kernel's: LongWorkRepository). */
@Injectable()
export class SimulationsRepository {
  constructor(@InjectRepository(SimulationEntity) private readonly simulations: Repository<SimulationEntity>) {}

  findScoped(id: string, scope: { tenantId?: string }): Promise<SimulationEntity | null> {
    return this.simulations.findOneBy({ id, ...scope });
  }

  /** A plan's simulations, newest first, one more than `limit` (see keyset-page.ts). */
  pageOfPlan(planId: string, limit: number, cursor?: string): Promise<SimulationEntity[]> {
    return newestFirst(this.simulations.createQueryBuilder('s').where('s.plan_id = :planId', { planId }), 's', limit, cursor).getMany();
  }
}
