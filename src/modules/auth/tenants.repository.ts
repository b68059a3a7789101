import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { newestFirst } from '../common/keyset-page';
import { TenantEntity } from './tenant.entity';

/** The tenants table. */
@Injectable()
export class TenantsRepository {
  constructor(@InjectRepository(TenantEntity) private readonly tenants: Repository<TenantEntity>) {}

  /** The tenant named so, created if missing (concurrent callers get the same row). */
  async ensure(name: string): Promise<TenantEntity> {
    await this.tenants.createQueryBuilder().insert().values({ name }).orIgnore().execute();
    return this.tenants.findOneByOrFail({ name });
  }

  existsByName(name: string): Promise<boolean> {
    return this.tenants.existsBy({ name });
  }

  insert(name: string): Promise<TenantEntity> {
    return this.tenants.save(this.tenants.create({ name }));
  }

  findById(id: string): Promise<TenantEntity | null> {
    return this.tenants.findOneBy({ id });
  }

  /** Newest first, one more than `limit` (see keyset-page.ts). */
  page(limit: number, cursor?: string): Promise<TenantEntity[]> {
    return newestFirst(this.tenants.createQueryBuilder('t'), 't', limit, cursor).getMany();
  }

  save(tenant: TenantEntity): Promise<TenantEntity> {
    return this.tenants.save(tenant);
  }
}
