import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export const ROLES = ['operator', 'farmer', 'customer'] as const;
export type Role = (typeof ROLES)[number];

/** Keys are random 192-bit tokens, so a SHA-256 digest is enough to store them safely (no slow hash needed). */
@Entity('api_keys')
export class ApiKeyEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Index() @Column({ type: 'uuid', name: 'tenant_id' }) tenantId!: string;
  @Column({ type: 'text' }) role!: Role;
  @Column({ type: 'text', default: '' }) label!: string;
  /** The first characters of the key, shown in listings so a user can tell keys apart. */
  @Column({ type: 'text' }) prefix!: string;
  @Index({ unique: true }) @Column({ type: 'text', name: 'key_hash' }) keyHash!: string;
  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' }) createdAt!: Date;
  @Column({ type: 'timestamptz', name: 'revoked_at', nullable: true }) revokedAt!: Date | null;
}
