/**
 * Fair order of queued work across tenants, within one kind (one queue).
 *
 * BullMQ's open-source queues are FIFO and have no groups (per-group rate limits and round-robin are BullMQ
 * Pro), so a tenant that submits a burst of long simulations used to hold every other tenant's work behind
 * the whole burst (45.5 s for a 0.5 s hadoop simulation behind two posum runs). Two ways were weighed:
 * - a dispatcher of our own that pops the next job round-robin over tenants: it replaces BullMQ's fetch loop,
 *   locks and stall detection, which the kernel relies on for crash safety, with code of ours;
 * - a fair-share check when a worker takes a job (chosen): BullMQ keeps its FIFO, and a job whose tenant
 *   already runs more of the kind than some other tenant with queued work is moved back to delayed for a
 *   moment, so the next job in line (another tenant's) is taken instead.
 * The rule is max-min fairness with round-robin among equals: of the tenants with work waiting (the job's own
 * included), those running fewest of the kind go first, and among them the one served longest ago (its last
 * start the oldest; never served, first). The job starts when its tenant is one of those. It is
 * work-conserving (a tenant alone on the queue uses every slot) and cannot deadlock (some waiting tenant is
 * always first). A burst therefore delays another tenant's job by at most the time a slot takes to free (one
 * of the burst's job lengths) plus the re-check delay. The counts come from the resource rows (Postgres), so
 * every worker of the deployment sees the same; two workers deciding at the same instant can both start
 * work of one tenant, which only makes the order less fair for a moment.
 */
export interface TenantLoad {
  tenantId: string;
  /** Its work of the kind running now (on any worker), the job itself not counted. */
  running: number;
  /** Its work of the kind queued (waiting for a slot), the job itself not counted. */
  queued: number;
  /** When it last started work of the kind (the job itself not counted); null: never. */
  lastStartedAt: Date | null;
}

/** Whether `tenantId` may start its job now, given every tenant's load of the kind. */
export function mayStart(tenantId: string, loads: TenantLoad[]): boolean {
  const mine = loads.find((l) => l.tenantId === tenantId) ?? { tenantId, running: 0, queued: 0, lastStartedAt: null };
  const servedAt = (l: TenantLoad) => l.lastStartedAt?.getTime() ?? -Infinity;
  return loads.every((l) => l.tenantId === tenantId || l.queued === 0 || l.running > mine.running || (l.running === mine.running && servedAt(l) >= servedAt(mine)));
}
