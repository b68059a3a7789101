/**
 * A small least-recently-used cache of rendered charts, by key. What it keeps never changes (a plan, a finished
 * simulation), so entries never expire; concurrent requests for one chart share one rendering.
 */
export class RenderCache {
  private readonly entries = new Map<string, Promise<string>>();

  constructor(private readonly size: number) {}

  get(key: string, render: () => Promise<string>): Promise<string> {
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
