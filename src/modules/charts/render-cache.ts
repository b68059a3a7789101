/**
 * A small least-recently-used cache of made charts (a body and what the caller keeps with it), by key. What it keeps never changes (a plan, a finished
 * simulation), so entries never expire; concurrent requests for one chart share one rendering.
 */
export class RenderCache<T> {
  private readonly entries = new Map<string, Promise<T>>();

  constructor(private readonly size: number) {}

  get(key: string, render: () => Promise<T>): Promise<T> {
    let hit = this.entries.get(key);
    if (hit) this.entries.delete(key); // re-inserted below: the Map's order is the recency order
    else {
      hit = render();
      hit.catch(() => this.entries.get(key) === hit && this.entries.delete(key)); // a failure is not kept
    }
    this.entries.set(key, hit);
    while (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value!);
    return hit;
  }
}
