/**
 * A deep copy of a running simulation's state (Simulator.fork): every object reached from `root` is copied with
 * its prototype (so a policy stays a policy), typed arrays, arrays, maps and sets with their contents, cycles and
 * shared references kept as they were. Objects in `shared` are not copied (the model, the regular load, the QoS
 * controller: nothing changes them). Objects that are keys of `swap` are replaced, wherever they are reached, by
 * their value (itself: shared; another object, or null: that instead). Functions are shared, so state must not live
 * in closures: the simulator's parts refer to each other and to the clock as objects (the QoS controller's view too,
 * qos-clock.ts).
 */
/**
 * A method under this key makes an object's copy itself (cloneState calls it instead of copying the object's
 * properties one by one): for objects with many instances in a run that hold only numbers and arrays of numbers,
 * such as a dispatcher's per-stage queues, whose copies by descriptor are most of a copy's cost.
 */
export const CLONE = Symbol('cloneState');

/**
 * Objects that every copy of a run shares with it, wherever they are reached (sharedByCopies): what nothing
 * changes once made, such as a policy's estimates from the model, and scratch space whose contents matter only
 * within one call. A policy held by every copy (POSUM's look-ahead makes thousands) then costs no copy of them.
 */
const SHARED_BY_COPIES = new WeakSet<object>();

/** Marks `x` as shared by every copy of a run that reaches it (SHARED_BY_COPIES); returns it. */
export function sharedByCopies<T extends object>(x: T): T {
  SHARED_BY_COPIES.add(x);
  return x;
}

export function cloneState<T>(root: T, shared: ReadonlySet<unknown>, swap?: ReadonlyMap<unknown, unknown>): T {
  const copies = new Map<unknown, unknown>();
  const copy = (x: unknown): unknown => {
    if (x === null || typeof x !== 'object') return x;
    if (swap?.has(x)) return swap.get(x);
    if (shared.has(x) || SHARED_BY_COPIES.has(x)) return x;
    const seen = copies.get(x);
    if (seen !== undefined) return seen;
    if (ArrayBuffer.isView(x)) {
      if (x instanceof DataView) throw new Error('cloneState: DataView is not supported');
      const c = (x as unknown as { slice(): unknown }).slice();
      copies.set(x, c);
      return c;
    }
    if (Array.isArray(x)) {
      // Numbers and nulls as they are (a run's samples, its tasks' replicas): only objects are copied one by one.
      const c: unknown[] = x.slice();
      copies.set(x, c);
      for (let i = 0; i < c.length; i++) {
        const v = c[i];
        if (v !== null && typeof v === 'object') c[i] = copy(v);
      }
      return c;
    }
    if (x instanceof Map) {
      const c = new Map();
      copies.set(x, c);
      for (const [k, v] of x) c.set(copy(k), copy(v));
      return c;
    }
    if (x instanceof Set) {
      const c = new Set();
      copies.set(x, c);
      for (const v of x) c.add(copy(v));
      return c;
    }
    const own = (x as { [CLONE]?: () => object })[CLONE];
    if (own !== undefined) {
      const c = own.call(x);
      copies.set(x, c);
      return c;
    }
    const c = Object.create(Object.getPrototypeOf(x)) as object;
    copies.set(x, c);
    for (const key of Reflect.ownKeys(x)) {
      const d = Object.getOwnPropertyDescriptor(x, key)!;
      if ('value' in d) d.value = copy(d.value);
      Object.defineProperty(c, key, d);
    }
    return c;
  };
  return copy(root) as T;
}
