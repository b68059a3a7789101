import type { Connection } from 'pg';

/**
 * `COPY ... FROM STDIN` for node-postgres without a dependency: a "submittable" the pg client runs like a
 * query (the same protocol hooks pg-copy-streams uses). COPY is the fastest way into Postgres: bulk heap
 * inserts and no per-row executor work (measured here: 403k rows by COPY 0.9 s, by INSERT ... SELECT
 * unnest(...) 1.4-1.7 s including the array literals).
 * Resolves with the number of rows copied.
 */
export class CopyFrom {
  readonly promise: Promise<number>;
  private resolve!: (rows: number) => void;
  private reject!: (e: Error) => void;
  private rows = 0;

  /** `sql` is the COPY statement; `chunks` its data in the statement's format. */
  constructor(
    private readonly sql: string,
    private readonly chunks: Buffer[],
  ) {
    this.promise = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  submit(connection: Connection): void {
    connection.query(this.sql);
  }

  handleCopyInResponse(connection: Connection & { sendCopyFromChunk(b: Buffer): void; endCopyFrom(): void }): void {
    for (const chunk of this.chunks) connection.sendCopyFromChunk(chunk);
    connection.endCopyFrom();
  }

  handleCommandComplete(msg: { text?: string }): void {
    const m = /^COPY (\d+)/.exec(msg.text ?? '');
    this.rows = m ? Number(m[1]) : 0;
  }

  handleReadyForQuery(): void {
    this.resolve(this.rows);
  }

  /** The client drops the query on an error and the next ReadyForQuery goes to the queue, so settle now. */
  handleError(e: Error): void {
    this.reject(e);
  }

  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}
}

/** Seconds from the Unix epoch to Postgres' epoch (2000-01-01), where binary timestamps count from. */
const PG_EPOCH_SECONDS = 946_684_800;
const ROW_BYTES = 2 + (4 + 4) + (4 + 8) + (4 + 8);

/**
 * Rows of (int4, timestamptz, float8) in COPY BINARY format, cut into chunks of about `chunkBytes`.
 * Binary spares the server parsing timestamps and floats from text (a third of the COPY time) and the
 * client building 400k strings. `ts` is Unix seconds; Postgres stores microseconds since 2000-01-01.
 */
export function binaryRows(rows: number, row: (k: number, out: { id: number; ts: number; value: number }) => void, chunkBytes = 1 << 20): Buffer[] {
  const buf = Buffer.allocUnsafe(19 + rows * ROW_BYTES + 2);
  buf.write('PGCOPY\n\xff\r\n\0', 0, 'latin1');
  buf.writeInt32BE(0, 11); // flags
  buf.writeInt32BE(0, 15); // header extension length
  let o = 19;
  const r = { id: 0, ts: 0, value: 0 };
  for (let k = 0; k < rows; k++) {
    row(k, r);
    const us = (r.ts - PG_EPOCH_SECONDS) * 1e6; // an integer below 2^53: exact
    const hi = Math.floor(us / 2 ** 32);
    o = buf.writeInt16BE(3, o);
    o = buf.writeInt32BE(4, o);
    o = buf.writeInt32BE(r.id, o);
    o = buf.writeInt32BE(8, o);
    o = buf.writeInt32BE(hi, o);
    o = buf.writeUInt32BE(us - hi * 2 ** 32, o);
    o = buf.writeInt32BE(8, o);
    o = buf.writeDoubleBE(r.value, o);
  }
  o = buf.writeInt16BE(-1, o); // trailer
  const chunks: Buffer[] = [];
  for (let at = 0; at < o; at += chunkBytes) chunks.push(buf.subarray(at, Math.min(o, at + chunkBytes)));
  return chunks;
}
