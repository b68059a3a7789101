import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, Repository } from 'typeorm';
import { IdempotencyEntity, PENDING_STATUS } from './idempotency.entity';

/** The stored first responses of creating POSTs (idempotency_keys), one row per API key and Idempotency-Key. */
@Injectable()
export class IdempotencyRepository {
  constructor(@InjectRepository(IdempotencyEntity) private readonly rows: Repository<IdempotencyEntity>) {}

  /** Inserts a pending row for the key; false when a row for it exists already (no error, no wait). */
  async reserve(keyId: string, key: string, requestHash: string): Promise<boolean> {
    const inserted = await this.rows
      .createQueryBuilder()
      .insert()
      .values({ keyId, key, requestHash, statusCode: PENDING_STATUS, body: {}, location: null })
      .orIgnore()
      .returning(['key'])
      .execute();
    return inserted.raw.length > 0;
  }

  find(keyId: string, key: string): Promise<IdempotencyEntity | null> {
    return this.rows.findOneBy({ keyId, key });
  }

  /** Stores the response of the request that holds the key. */
  async complete(keyId: string, key: string, response: { statusCode: number; body: object; location: string | null }): Promise<void> {
    await this.rows.update({ keyId, key }, response);
  }

  /** Gives a reservation back (only while pending); `createdAt` limits it to one abandoned reservation. */
  async release(keyId: string, key: string, createdAt?: Date): Promise<void> {
    await this.rows.delete({ keyId, key, statusCode: PENDING_STATUS, ...(createdAt ? { createdAt } : {}) });
  }

  /** Forgets every stored response created before `before` (they expire: a replay is for retries, not an archive). */
  async purgeOlderThan(before: Date): Promise<void> {
    await this.rows.delete({ createdAt: LessThan(before) });
  }
}
