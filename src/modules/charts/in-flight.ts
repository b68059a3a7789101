/**
 * One load shared by the requests in flight at the same time: the plan page asks for a plan's Gantt and its
 * utilisation at once, and reading a 100,000-task plan and its instance takes Postgres about half a second
 * (bench/SERVICE-SCALE.md). A request joins on arrival and leaves when it is answered; the load is kept while
 * anyone who joined it is still being answered, and forgotten with the last of them, so a request that comes
 * later reads afresh.
 */
export interface Joined<T> {
  /** The shared load, started by the first caller that needs it. */
  get(): Promise<T>;
  /** This request is answered (idempotent). */
  release(): void;
}

export class InFlight<T> {
  private readonly entries = new Map<string, { users: number; value?: Promise<T> }>();

  join(key: string, load: () => Promise<T>): Joined<T> {
    let entry = this.entries.get(key);
    if (!entry) this.entries.set(key, (entry = { users: 0 }));
    entry.users++;
    const e = entry;
    let released = false;
    return {
      get: () => (e.value ??= load()),
      release: () => {
        if (released) return;
        released = true;
        if (--e.users === 0 && this.entries.get(key) === e) this.entries.delete(key);
      },
    };
  }

  /** Keys with requests in flight (for tests). */
  get size(): number {
    return this.entries.size;
  }
}
