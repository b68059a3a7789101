/**
 * Runs work one at a time per key inside this process. Commits on one cluster queue here before they take
 * the cluster's Postgres lock, so that a crowd of commits waits in memory, not each on a pooled database
 * connection held open by its transaction (twenty waiting commits would otherwise starve the API's pool).
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const result = before.then(work, work);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    // The last one out removes the key, so the map holds only clusters with work in flight.
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
