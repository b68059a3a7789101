import type { Model } from '../model/model';
import type { Schedule } from '../schedule/schedule';

/**
 * Locality for free: the tasks of one stage are identical but for their input block, so which task takes
 * which of the stage's (node, start) pairs changes neither feasibility nor any end time. For each stage
 * whose blocks the instance gives, the tasks are re-dealt to the same pairs so that as many as possible
 * run on a node holding their block (a maximum bipartite matching), then as many of the rest as possible in
 * a rack holding one, the others anywhere. Makespan, ends and revenue stay exactly the same. Mutates `schedule`.
 * A schedule with priced transfers is refused: a map's fetch depends on where its block is, so re-dealt
 * tasks would keep another task's fetch slots.
 */
export function matchBlocks(model: Model, schedule: Schedule): void {
  for (const s of model.stages) {
    if (!s.blocks) continue;
    schedule.refusePriced('matching map tasks to their blocks');
    const tasks: number[] = [];
    for (let t = 0; t < s.tasks; t++) if (schedule.node[s.firstTask + t] >= 0) tasks.push(t);
    if (tasks.length === 0) continue;
    const slotNode = Int32Array.from(tasks, (t) => schedule.node[s.firstTask + t]);
    const slotStart = Int32Array.from(tasks, (t) => schedule.start[s.firstTask + t]);
    const slotsOn = new Map<number, number[]>();
    slotNode.forEach((k, x) => listOf(slotsOn, k).push(x));
    const n = tasks.length;
    // Node-local first.
    const local = maxMatching(n, n, (u, visit) => {
      for (const k of s.blocks![tasks[u]]) for (const x of slotsOn.get(k) ?? []) visit(x);
    });
    // Then rack-local, among what is left.
    const usedSlot = new Uint8Array(n);
    local.forEach((x) => x >= 0 && (usedSlot[x] = 1));
    const slotsInRack = new Map<string, number[]>();
    for (let x = 0; x < n; x++) if (!usedSlot[x] && model.racks[slotNode[x]] !== '') listOf(slotsInRack, model.racks[slotNode[x]]).push(x);
    const left = [...local.keys()].filter((u) => local[u] < 0);
    const rack = maxMatching(left.length, n, (u, visit) => {
      const racks = new Set(Array.from(s.blocks![tasks[left[u]]], (k) => model.racks[k]).filter((r) => r !== ''));
      for (const r of racks) for (const x of slotsInRack.get(r) ?? []) visit(x);
    });
    const slotOf = Int32Array.from(local);
    left.forEach((u, v) => rack[v] >= 0 && ((slotOf[u] = rack[v]), (usedSlot[rack[v]] = 1)));
    // The rest anywhere.
    let free = 0;
    for (let u = 0; u < n; u++) {
      if (slotOf[u] >= 0) continue;
      while (usedSlot[free]) free++;
      slotOf[u] = free;
      usedSlot[free] = 1;
    }
    tasks.forEach((t, u) => {
      schedule.node[s.firstTask + t] = slotNode[slotOf[u]];
      schedule.start[s.firstTask + t] = slotStart[slotOf[u]];
    });
  }
}

/** The list under `key`, created empty on first use (appending to it is then O(1), not a copy). */
function listOf<K>(map: Map<K, number[]>, key: K): number[] {
  let list = map.get(key);
  if (!list) map.set(key, (list = []));
  return list;
}

/**
 * Hopcroft-Karp maximum bipartite matching: `edges(u, visit)` calls visit(v) for every right vertex v next
 * to left vertex u. Returns, per left vertex, its matched right vertex or -1. O(E sqrt(V)).
 */
export function maxMatching(nLeft: number, nRight: number, edges: (u: number, visit: (v: number) => void) => void): Int32Array {
  // Adjacency in CSR form, built once.
  const start = new Int32Array(nLeft + 1);
  const list: number[] = [];
  for (let u = 0; u < nLeft; u++) {
    start[u] = list.length;
    edges(u, (v) => list.push(v));
  }
  start[nLeft] = list.length;
  const adj = Int32Array.from(list);
  const matchL = new Int32Array(nLeft).fill(-1);
  const matchR = new Int32Array(nRight).fill(-1);
  const dist = new Int32Array(nLeft);
  const queue = new Int32Array(nLeft);
  const INF = 0x3fffffff;
  const bfs = (): boolean => {
    let head = 0;
    let tail = 0;
    let found = false;
    for (let u = 0; u < nLeft; u++) {
      if (matchL[u] < 0) (dist[u] = 0), (queue[tail++] = u);
      else dist[u] = INF;
    }
    while (head < tail) {
      const u = queue[head++];
      for (let e = start[u]; e < start[u + 1]; e++) {
        const w = matchR[adj[e]];
        if (w < 0) found = true;
        else if (dist[w] === INF) (dist[w] = dist[u] + 1), (queue[tail++] = w);
      }
    }
    return found;
  };
  // Iterative DFS along the BFS layers (recursion would overflow on long augmenting paths); via[d] is the
  // edge taken from stack[d]; it[u] is where u's scan resumes within a phase.
  const it = new Int32Array(nLeft);
  const stack = new Int32Array(nLeft + 1);
  const via = new Int32Array(nLeft + 1);
  const augment = (root: number): boolean => {
    let top = 0;
    stack[0] = root;
    while (top >= 0) {
      const u = stack[top];
      if (it[u] >= start[u + 1]) {
        dist[u] = INF; // a dead end for the rest of this phase
        top--;
        continue;
      }
      const e = it[u]++;
      const w = matchR[adj[e]];
      if (w < 0) {
        via[top] = e;
        for (let d = 0; d <= top; d++) {
          const y = adj[via[d]];
          matchL[stack[d]] = y;
          matchR[y] = stack[d];
        }
        return true;
      }
      if (dist[w] === dist[u] + 1) {
        via[top] = e;
        stack[++top] = w;
      }
    }
    return false;
  };
  while (bfs()) {
    it.set(start.subarray(0, nLeft));
    for (let u = 0; u < nLeft; u++) if (matchL[u] < 0) augment(u);
  }
  return matchL;
}
