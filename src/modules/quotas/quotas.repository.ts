import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { DEFAULT_QUOTA, QuotaEntity } from './quota.entity';

/** The cluster_quotas table. */
@Injectable()
export class QuotasRepository {
  constructor(@InjectRepository(QuotaEntity) private readonly quotas: Repository<QuotaEntity>) {}

  async put(row: Pick<QuotaEntity, 'clusterId' | 'customer' | 'shares' | 'borrow'>): Promise<QuotaEntity> {
    await this.quotas.upsert(row, ['clusterId', 'customer']);
    return this.quotas.findOneByOrFail({ clusterId: row.clusterId, customer: row.customer });
  }

  list(clusterId: string): Promise<QuotaEntity[]> {
    return this.quotas.find({ where: { clusterId }, order: { customer: 'ASC' } });
  }

  /** The customer's own row and the cluster's default, whichever exist. */
  ownAndDefault(clusterId: string, customer: string): Promise<QuotaEntity[]> {
    return this.quotas.findBy({ clusterId, customer: In([customer, DEFAULT_QUOTA]) });
  }

  async delete(clusterId: string, customer: string): Promise<boolean> {
    return ((await this.quotas.delete({ clusterId, customer })).affected ?? 0) > 0;
  }
}
