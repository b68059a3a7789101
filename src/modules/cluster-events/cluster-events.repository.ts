import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { newestFirst } from '../common/keyset-page';
import { ClusterEventEntity } from './cluster-event.entity';

/** The cluster_events table. */
@Injectable()
export class ClusterEventsRepository {
  constructor(@InjectRepository(ClusterEventEntity) private readonly events: Repository<ClusterEventEntity>) {}

  insert(row: Pick<ClusterEventEntity, 'clusterId' | 'tenantId' | 'type' | 'node' | 'at' | 'until' | 'reason'>): Promise<ClusterEventEntity> {
    return this.events.save(this.events.create(row));
  }

  /** Newest posted first, one more than `limit` (see keyset-page.ts). */
  page(clusterId: string, limit: number, cursor?: string): Promise<ClusterEventEntity[]> {
    return newestFirst(this.events.createQueryBuilder('e').where('e.cluster_id = :clusterId', { clusterId }), 'e', limit, cursor).getMany();
  }

  /**
   * The events that can bear on a window ending at `before`: every one of the cluster dated before it (a loss
   * reported long ago may still last), in the order they happened, those of one instant in the order posted.
   */
  before(clusterId: string, before: Date): Promise<ClusterEventEntity[]> {
    return this.events
      .createQueryBuilder('e')
      .where('e.cluster_id = :clusterId AND e.at < :before', { clusterId, before })
      .orderBy('e.at', 'ASC')
      .addOrderBy('e.created_at', 'ASC')
      .addOrderBy('e.id', 'ASC')
      .getMany();
  }
}
