/**
 * NSGA-II building blocks (Deb et al. 2002), pure functions on objective vectors that are all to be
 * minimised: fast non-dominated sorting, crowding distance and the crowded-comparison order.
 */

export type Point = readonly number[];

/** a dominates b: no worse in every objective and strictly better in one. */
export function dominates(a: Point, b: Point): boolean {
  let strictly = false;
  for (let o = 0; o < a.length; o++) {
    if (a[o] > b[o]) return false;
    if (a[o] < b[o]) strictly = true;
  }
  return strictly;
}

/** Fronts of indices into `points`: front 0 is non-dominated, front r is dominated only by fronts < r. */
export function nonDominatedSort(points: readonly Point[]): number[][] {
  const n = points.length;
  const dominatedBy = new Int32Array(n);
  const dominating: number[][] = points.map(() => []);
  const fronts: number[][] = [[]];
  for (let p = 0; p < n; p++) {
    for (let q = p + 1; q < n; q++) {
      if (dominates(points[p], points[q])) {
        dominating[p].push(q);
        dominatedBy[q]++;
      } else if (dominates(points[q], points[p])) {
        dominating[q].push(p);
        dominatedBy[p]++;
      }
    }
  }
  for (let p = 0; p < n; p++) if (dominatedBy[p] === 0) fronts[0].push(p);
  for (let r = 0; fronts[r].length > 0; r++) {
    const next: number[] = [];
    for (const p of fronts[r]) for (const q of dominating[p]) if (--dominatedBy[q] === 0) next.push(q);
    fronts.push(next);
  }
  fronts.pop();
  return fronts;
}

/**
 * Crowding distance of each member of one front (same order as `front`): the normalised size of the
 * box spanned by its neighbours, summed over objectives; the extremes of each objective get Infinity.
 */
export function crowdingDistance(points: readonly Point[], front: readonly number[]): Float64Array {
  const n = front.length;
  const dist = new Float64Array(n);
  if (n === 0) return dist;
  const nObj = points[front[0]].length;
  const idx = Array.from({ length: n }, (_, i) => i);
  for (let o = 0; o < nObj; o++) {
    idx.sort((a, b) => points[front[a]][o] - points[front[b]][o]);
    const lo = points[front[idx[0]]][o];
    const hi = points[front[idx[n - 1]]][o];
    dist[idx[0]] = Infinity;
    dist[idx[n - 1]] = Infinity;
    if (hi === lo) continue;
    for (let r = 1; r < n - 1; r++) dist[idx[r]] += (points[front[idx[r + 1]]][o] - points[front[idx[r - 1]]][o]) / (hi - lo);
  }
  return dist;
}

/** Crowded-comparison order: lower rank first, then larger crowding distance. */
export function crowdedBetter(rankA: number, crowdA: number, rankB: number, crowdB: number): boolean {
  return rankA < rankB || (rankA === rankB && crowdA > crowdB);
}

/**
 * NSGA-II environmental selection: indices of the `size` survivors of `points`, whole fronts first,
 * the last front cut by decreasing crowding distance. Fills rank/crowd (indexed like points).
 */
export function selectSurvivors(points: readonly Point[], size: number, rank: Float64Array, crowd: Float64Array): number[] {
  const survivors: number[] = [];
  const fronts = nonDominatedSort(points);
  for (let r = 0; r < fronts.length && survivors.length < size; r++) {
    const front = fronts[r];
    const dist = crowdingDistance(points, front);
    front.forEach((p, i) => ((rank[p] = r), (crowd[p] = dist[i])));
    if (survivors.length + front.length <= size) {
      survivors.push(...front);
      continue;
    }
    const byCrowd = front.map((_, i) => i).sort((a, b) => dist[b] - dist[a] || front[a] - front[b]);
    for (const i of byCrowd.slice(0, size - survivors.length)) survivors.push(front[i]);
  }
  return survivors;
}
