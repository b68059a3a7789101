import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** Moments kept per stage, in the order of src/engine/predict/stats.ts (column prefix -> StageStats field). */
export const HISTORY_MOMENTS = {
  runtime: 'runtime',
  rate: 'rate',
  rate_local: 'rateLocal',
  rate_remote: 'rateRemote',
  shuffle_rate: 'shuffleRate',
  merge_rate: 'mergeRate',
  reduce_rate: 'reduceRate',
  first_shuffle: 'firstShuffle',
} as const;

/**
 * The runtime history of one stage of one executed job: the sums of src/engine/predict/stats.ts over its
 * completed tasks, rebuilt from execution_events whenever events of the job arrive (in the same
 * transaction). Predictions add these rows up over a tenant's most recent jobs, per class or kind, instead
 * of scanning raw events.
 */
@Entity('stage_history')
@Index('ix_stage_history_kind', ['tenantId', 'kind', 'lastFinishedAt'])
@Index('ix_stage_history_map_class', ['tenantId', 'mapClass', 'lastFinishedAt'])
@Index('ix_stage_history_reduce_class', ['tenantId', 'reduceClass', 'lastFinishedAt'])
export class StageHistoryEntity {
  @PrimaryColumn({ type: 'uuid', name: 'solve_id' }) solveId!: string;
  @PrimaryColumn({ type: 'text' }) job!: string;
  @PrimaryColumn({ type: 'text' }) stage!: string;
  /** The solve's tenant: the customer whose history this is. */
  @Column({ type: 'uuid', name: 'tenant_id' }) tenantId!: string;
  /** map (no predecessor stage) or reduce. */
  @Column({ type: 'text' }) kind!: string;
  @Column({ type: 'text', name: 'map_class', nullable: true }) mapClass!: string | null;
  @Column({ type: 'text', name: 'reduce_class', nullable: true }) reduceClass!: string | null;
  @Column({ type: 'timestamptz', name: 'last_finished_at' }) lastFinishedAt!: Date;
  @Column({ type: 'double precision', name: 'bytes_in' }) bytesIn!: number;
  @Column({ type: 'double precision', name: 'bytes_out' }) bytesOut!: number;
  @Column({ type: 'int', name: 'runtime_n' }) runtimeN!: number;
  @Column({ type: 'double precision', name: 'runtime_sum' }) runtimeSum!: number;
  @Column({ type: 'double precision', name: 'runtime_sum_sq' }) runtimeSumSq!: number;
  @Column({ type: 'double precision', name: 'runtime_num' }) runtimeNum!: number;
  @Column({ type: 'double precision', name: 'runtime_den' }) runtimeDen!: number;
  @Column({ type: 'int', name: 'rate_n' }) rateN!: number;
  @Column({ type: 'double precision', name: 'rate_sum' }) rateSum!: number;
  @Column({ type: 'double precision', name: 'rate_sum_sq' }) rateSumSq!: number;
  @Column({ type: 'double precision', name: 'rate_num' }) rateNum!: number;
  @Column({ type: 'double precision', name: 'rate_den' }) rateDen!: number;
  @Column({ type: 'int', name: 'rate_local_n' }) rateLocalN!: number;
  @Column({ type: 'double precision', name: 'rate_local_sum' }) rateLocalSum!: number;
  @Column({ type: 'double precision', name: 'rate_local_sum_sq' }) rateLocalSumSq!: number;
  @Column({ type: 'double precision', name: 'rate_local_num' }) rateLocalNum!: number;
  @Column({ type: 'double precision', name: 'rate_local_den' }) rateLocalDen!: number;
  @Column({ type: 'int', name: 'rate_remote_n' }) rateRemoteN!: number;
  @Column({ type: 'double precision', name: 'rate_remote_sum' }) rateRemoteSum!: number;
  @Column({ type: 'double precision', name: 'rate_remote_sum_sq' }) rateRemoteSumSq!: number;
  @Column({ type: 'double precision', name: 'rate_remote_num' }) rateRemoteNum!: number;
  @Column({ type: 'double precision', name: 'rate_remote_den' }) rateRemoteDen!: number;
  @Column({ type: 'int', name: 'shuffle_rate_n' }) shuffleRateN!: number;
  @Column({ type: 'double precision', name: 'shuffle_rate_sum' }) shuffleRateSum!: number;
  @Column({ type: 'double precision', name: 'shuffle_rate_sum_sq' }) shuffleRateSumSq!: number;
  @Column({ type: 'double precision', name: 'shuffle_rate_num' }) shuffleRateNum!: number;
  @Column({ type: 'double precision', name: 'shuffle_rate_den' }) shuffleRateDen!: number;
  @Column({ type: 'int', name: 'merge_rate_n' }) mergeRateN!: number;
  @Column({ type: 'double precision', name: 'merge_rate_sum' }) mergeRateSum!: number;
  @Column({ type: 'double precision', name: 'merge_rate_sum_sq' }) mergeRateSumSq!: number;
  @Column({ type: 'double precision', name: 'merge_rate_num' }) mergeRateNum!: number;
  @Column({ type: 'double precision', name: 'merge_rate_den' }) mergeRateDen!: number;
  @Column({ type: 'int', name: 'reduce_rate_n' }) reduceRateN!: number;
  @Column({ type: 'double precision', name: 'reduce_rate_sum' }) reduceRateSum!: number;
  @Column({ type: 'double precision', name: 'reduce_rate_sum_sq' }) reduceRateSumSq!: number;
  @Column({ type: 'double precision', name: 'reduce_rate_num' }) reduceRateNum!: number;
  @Column({ type: 'double precision', name: 'reduce_rate_den' }) reduceRateDen!: number;
  @Column({ type: 'int', name: 'first_shuffle_n' }) firstShuffleN!: number;
  @Column({ type: 'double precision', name: 'first_shuffle_sum' }) firstShuffleSum!: number;
  @Column({ type: 'double precision', name: 'first_shuffle_sum_sq' }) firstShuffleSumSq!: number;
  @Column({ type: 'double precision', name: 'first_shuffle_num' }) firstShuffleNum!: number;
  @Column({ type: 'double precision', name: 'first_shuffle_den' }) firstShuffleDen!: number;
}
