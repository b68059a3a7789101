import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** status_code of a key reserved by a request that is still running (its body and location are not known yet). */
export const PENDING_STATUS = 0;

/** The first response to a creating POST, replayed when a client retries with the same Idempotency-Key. */
@Entity('idempotency_keys')
export class IdempotencyEntity {
  @PrimaryColumn({ type: 'uuid', name: 'key_id' }) keyId!: string;
  @PrimaryColumn({ type: 'text' }) key!: string;
  @Column({ type: 'text', name: 'request_hash' }) requestHash!: string;
  @Column({ type: 'int', name: 'status_code' }) statusCode!: number;
  @Column({ type: 'jsonb' }) body!: unknown;
  @Column({ type: 'text', nullable: true }) location!: string | null;
  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' }) createdAt!: Date;
}
