import { CAPACITY_EPS, Model } from '../../model/model';
import { Windows } from './windows';

/**
 * Sets of stages no two of which can run at the same time on node k: pairs whose demands together
 * exceed the node's largest availability on some metric, or that are ordered by precedence. Each set
 * gives the valid row "at most one of them runs at t", which the capacity rows only imply for integer
 * solutions; it is what lifts the LP bound of time-indexed RCPSP models above the critical path.
 * Only stages of which at most one task can run on k at a time take part.
 */
export function disjunctiveCliques(model: Model, w: Windows, k: number, maxCliques: number): number[][] {
  const { M, T } = model;
  const capMax = new Float64Array(M);
  for (let m = 0; m < M; m++) {
    let c = 0;
    for (let t = 0; t < w.horizon; t++) c = Math.max(c, model.avail[k][m * T + t]);
    capMax[m] = c + CAPACITY_EPS;
  }
  const clash = (a: number, b: number) => {
    const da = model.stages[a].demand;
    const db = model.stages[b].demand;
    for (let m = 0; m < M; m++) if (da[m] + db[m] > capMax[m]) return true;
    return false;
  };
  const cand = model.stages
    .map((s, g) => g)
    .filter((g) => w.jobFeasible[model.stages[g].job] && w.slots[g][k].length > 0 && (model.stages[g].tasks === 1 || clash(g, g)));
  if (cand.length < 2) return [];
  const ordered = precedenceClosure(model);
  const n = cand.length;
  const adj: Uint8Array[] = cand.map(() => new Uint8Array(n));
  const degree = new Int32Array(n);
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const a = cand[i];
      const b = cand[j];
      if (clash(a, b) || ordered(a, b) || ordered(b, a)) {
        adj[i][j] = adj[j][i] = 1;
        degree[i]++;
        degree[j]++;
      }
    }
  // Greedy cover of the conflict edges by maximal cliques, most-connected stages first.
  const byDegree = Array.from({ length: n }, (_, i) => i).sort((a, b) => degree[b] - degree[a]);
  const covered: Uint8Array[] = cand.map(() => new Uint8Array(n));
  const cliques: number[][] = [];
  for (const v of byDegree) {
    for (const u of byDegree) {
      if (cliques.length >= maxCliques) return cliques;
      if (!adj[v][u] || covered[v][u]) continue;
      const members = [v, u];
      for (const x of byDegree) if (x !== v && x !== u && members.every((y) => adj[x][y])) members.push(x);
      for (const a of members) for (const b of members) covered[a][b] = 1;
      if (members.length >= 3) cliques.push(members.map((i) => cand[i]));
    }
  }
  return cliques;
}

/** ordered(a, b): stage b is a (transitive) successor of stage a in the same job. */
function precedenceClosure(model: Model): (a: number, b: number) => boolean {
  const reach = new Map<number, Set<number>>();
  const visit = (g: number): Set<number> => {
    let r = reach.get(g);
    if (r) return r;
    r = new Set<number>();
    for (const h of model.stages[g].succs) {
      r.add(h);
      for (const x of visit(h)) r.add(x);
    }
    reach.set(g, r);
    return r;
  };
  return (a, b) => model.stages[a].job === model.stages[b].job && visit(a).has(b);
}
