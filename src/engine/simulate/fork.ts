/**
 * A deep copy of a running simulation's state (Simulator.fork): every object reached from `root` is copied with
 * its prototype (so a policy stays a policy), typed arrays, arrays, maps and sets with their contents, cycles and
 * shared references kept as they were. Objects in `shared` are not copied (the model, the regular load, the QoS
 * controller: nothing changes them). Objects that are keys of `swap` are replaced, wherever they are reached, by
 * their value (itself: shared; another object, or null: that instead). Functions are shared, so state must not live
 * in closures: the simulator's parts refer to each other and to the clock as objects (the QoS controller's view too,
 * qos-clock.ts).
 */
export function cloneState<T>(root: T, shared: ReadonlySet<unknown>, swap?: ReadonlyMap<unknown, unknown>): T {
  const copies = new Map<unknown, unknown>();
  const copy = (x: unknown): unknown => {
    if (x === null || typeof x !== 'object') return x;
    if (swap?.has(x)) return swap.get(x);
    if (shared.has(x)) return x;
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
    const proto = Object.getPrototypeOf(x) as object | null;
    const c = Object.create(proto) as Record<PropertyKey, unknown>;
    copies.set(x, c);
    // A class's fields are assigned (several times faster than copying descriptors); plain objects, and any field
    // that is not a plain one (an accessor, read-only, hidden), get their descriptors copied.
    const cls = proto !== null && proto !== Object.prototype;
    for (const key of Reflect.ownKeys(x)) {
      if (cls && plainField(x, proto, key)) {
        c[key] = copy((x as Record<PropertyKey, unknown>)[key]);
        continue;
      }
      const d = Object.getOwnPropertyDescriptor(x, key)!;
      if ('value' in d) d.value = copy(d.value);
      Object.defineProperty(c, key, d);
    }
    return c;
  };
  return copy(root) as T;
}

/** Per class (prototype) and field name: whether the field is a plain one, copied by assignment. */
const PLAIN = new WeakMap<object, Map<PropertyKey, boolean>>();

/**
 * Field `key` of `x`, an instance of `proto`, is a plain data property (writable, enumerable, configurable) that
 * assigning on a new instance makes again (no setter or read-only property of that name on the prototype chain).
 * Decided on the first instance seen and taken to hold for the others, as it does for fields (the engine defines no
 * property by hand).
 */
function plainField(x: object, proto: object, key: PropertyKey): boolean {
  let known = PLAIN.get(proto);
  if (!known) PLAIN.set(proto, (known = new Map()));
  let ok = known.get(key);
  if (ok === undefined) {
    const d = Object.getOwnPropertyDescriptor(x, key)!;
    ok = 'value' in d && d.writable === true && d.enumerable === true && d.configurable === true;
    for (let p: object | null = proto; ok && p !== null; p = Object.getPrototypeOf(p) as object | null) {
      const inherited = Object.getOwnPropertyDescriptor(p, key);
      if (!inherited) continue;
      ok = 'value' in inherited && inherited.writable === true;
      break;
    }
    known.set(key, ok);
  }
  return ok;
}
