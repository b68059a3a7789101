import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** The database probe of the health check. */
@Injectable()
export class HealthRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Whether the database answers a trivial query. */
  ping(): Promise<boolean> {
    return this.db.query('SELECT 1').then(
      () => true,
      () => false,
    );
  }
}
