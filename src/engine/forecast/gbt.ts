/**
 * Gradient-boosted regression trees for one quantile q (Friedman's gradient boosting with the quantile
 * loss, as in scikit-learn's GradientBoostingRegressor(loss="quantile")):
 *   F_0 = a per-row start value (the caller's: here the node's own q-quantile)
 *   for each tree: draw a subsample; fit a depth-limited least-squares tree to the negative pinball
 *   gradient (q where y > F, q - 1 elsewhere); replace each leaf's value by the q-quantile of the
 *   residuals y - F of its rows (the loss-optimal constant for that leaf); F += shrinkage * tree.
 * The split search works on histograms of binned features (bins.ts), with the larger child's histogram
 * obtained by subtracting the smaller one's from the parent's.
 */
import { Random } from '../random';
import { quantileInPlace } from './quantile';

export interface GbtOptions {
  trees: number;
  maxDepth: number;
  learningRate: number;
  /** Probability that a row takes part in a tree (stochastic gradient boosting). */
  subsample: number;
  /** Fewest rows in a leaf: at q = 0.99 a leaf's quantile is close to its maximum, so leaves stay large. */
  minLeaf: number;
  seed: number;
}

/** Flat tree: node i is a leaf when feature[i] < 0; otherwise rows with bin <= threshold[i] go left. */
export interface Tree {
  feature: Int8Array;
  threshold: Uint8Array;
  left: Int32Array;
  right: Int32Array;
  value: Float64Array;
}

export interface Gbt {
  q: number;
  learningRate: number;
  trees: Tree[];
}

interface Data {
  bins: Uint8Array;
  nf: number;
  nb: number;
  grad: Float64Array;
  /** Scratch for the stable partition. */
  tmp: Uint32Array;
}

/**
 * Trains on row-major bins (n x nf, values < nb), targets y and start values f0 (modified: on return it
 * holds the in-sample prediction).
 */
export function trainGbt(bins: Uint8Array, nf: number, nb: number, y: Float64Array, f: Float64Array, q: number, o: GbtOptions): Gbt {
  const n = y.length;
  const rng = new Random(o.seed);
  const grad = new Float64Array(n);
  const idx = new Uint32Array(n);
  const scratch = new Float64Array(n);
  const trees: Tree[] = [];
  const data: Data = { bins, nf, nb, grad, tmp: new Uint32Array(n) };
  const lr = o.learningRate;
  const inBag = new Uint8Array(n);
  const keep = Math.min(1, o.subsample) * 4294967296;
  for (let t = 0; t < o.trees; t++) {
    // Bernoulli subsample in row order: rows stay ascending, so every pass over them walks memory forward
    let m = 0;
    for (let i = 0; i < n; i++) {
      inBag[i] = 0;
      if (rng.nextU32() >= keep) continue;
      inBag[i] = 1;
      idx[m++] = i;
      grad[i] = y[i] > f[i] ? q : q - 1; // negative gradient of the pinball loss
    }
    if (m < 2 * o.minLeaf) continue;
    const b = new TreeBuilder(data, o);
    b.grow(idx, 0, m, histogram(data, idx, 0, m), 0);
    // quantile leaf update over the in-bag rows of each leaf, then F += shrinkage * leaf for them ...
    for (const [leaf, lo, hi] of b.leafRanges) {
      for (let k = lo; k < hi; k++) scratch[k - lo] = y[idx[k]] - f[idx[k]];
      const v = quantileInPlace(scratch, hi - lo, q);
      b.value[leaf] = v;
      for (let k = lo; k < hi; k++) f[idx[k]] += lr * v;
    }
    const tree = b.finish();
    const { feature, threshold, left, right, value } = tree;
    // ... and for the out-of-bag rows by walking the tree
    for (let i = 0, off = 0; i < n; i++, off += nf) {
      if (inBag[i]) continue;
      let node = 0;
      while (feature[node] >= 0) node = bins[off + feature[node]] <= threshold[node] ? left[node] : right[node];
      f[i] += lr * value[node];
    }
    trees.push(tree);
  }
  return { q, learningRate: lr, trees };
}

/** Sum of the shrunk leaf values for one binned row (add the row's start value). */
export function predictGbt(model: Gbt, bins: Uint8Array, offset: number): number {
  let s = 0;
  for (const t of model.trees) s += t.value[leafOf(t, bins, offset)];
  return s * model.learningRate;
}

function leafOf(t: Tree, bins: Uint8Array, offset: number): number {
  let i = 0;
  while (t.feature[i] >= 0) i = bins[offset + t.feature[i]] <= t.threshold[i] ? t.left[i] : t.right[i];
  return i;
}

/** Gradient sums (first nf*nb entries) and row counts (next nf*nb) per feature and bin. */
function histogram(d: Data, idx: Uint32Array, lo: number, hi: number): Float64Array {
  const { bins, nf, nb, grad } = d;
  const h = new Float64Array(2 * nf * nb);
  const c = nf * nb;
  for (let k = lo; k < hi; k++) {
    const i = idx[k];
    const g = grad[i];
    const off = i * nf;
    for (let j = 0, base = 0; j < nf; j++, base += nb) {
      const at = base + bins[off + j];
      h[at] += g;
      h[c + at] += 1;
    }
  }
  return h;
}

class TreeBuilder {
  feature: number[] = [];
  threshold: number[] = [];
  left: number[] = [];
  right: number[] = [];
  value: number[] = [];
  leafRanges: [number, number, number][] = [];

  constructor(
    private d: Data,
    private o: GbtOptions,
  ) {}

  /** Grows the subtree of rows idx[lo..hi) whose histogram is h; returns its node id. */
  grow(idx: Uint32Array, lo: number, hi: number, h: Float64Array, depth: number): number {
    const id = this.feature.length;
    this.feature.push(-1);
    this.threshold.push(0);
    this.left.push(-1);
    this.right.push(-1);
    this.value.push(0);
    const split = depth < this.o.maxDepth ? this.bestSplit(h, hi - lo) : null;
    if (!split) {
      this.leafRanges.push([id, lo, hi]);
      return id;
    }
    const { f, bin } = split;
    const { bins, nf } = this.d;
    // stable partition (rows with bin <= threshold first), so both children keep ascending row order
    const { tmp } = this.d;
    let i = lo;
    let r = 0;
    for (let k = lo; k < hi; k++) {
      const row = idx[k];
      if (bins[row * nf + f] <= bin) idx[i++] = row;
      else tmp[r++] = row;
    }
    for (let k = 0; k < r; k++) idx[i + k] = tmp[k];
    const mid = i;
    const leftSmaller = mid - lo <= hi - mid;
    const small = leftSmaller ? histogram(this.d, idx, lo, mid) : histogram(this.d, idx, mid, hi);
    for (let k = 0; k < h.length; k++) h[k] -= small[k]; // the parent's histogram becomes the larger child's
    const hl = leftSmaller ? small : h;
    const hr = leftSmaller ? h : small;
    this.feature[id] = f;
    this.threshold[id] = bin;
    this.left[id] = this.grow(idx, lo, mid, hl, depth + 1);
    this.right[id] = this.grow(idx, mid, hi, hr, depth + 1);
    return id;
  }

  /** The split maximising the least-squares gain GL^2/nL + GR^2/nR - G^2/n with both sides >= minLeaf. */
  private bestSplit(h: Float64Array, n: number): { f: number; bin: number } | null {
    const { nf, nb } = this.d;
    const minLeaf = this.o.minLeaf;
    if (n < 2 * minLeaf) return null;
    const c = nf * nb;
    let gTotal = 0;
    for (let b = 0; b < nb; b++) gTotal += h[b];
    const parent = (gTotal * gTotal) / n;
    let best = 1e-12;
    let bf = -1;
    let bb = 0;
    for (let f = 0; f < nf; f++) {
      let gl = 0;
      let nl = 0;
      const base = f * nb;
      for (let b = 0; b < nb - 1; b++) {
        gl += h[base + b];
        nl += h[c + base + b];
        if (nl < minLeaf) continue;
        const nr = n - nl;
        if (nr < minLeaf) break;
        const gr = gTotal - gl;
        const gain = (gl * gl) / nl + (gr * gr) / nr - parent;
        if (gain > best) {
          best = gain;
          bf = f;
          bb = b;
        }
      }
    }
    return bf < 0 ? null : { f: bf, bin: bb };
  }

  finish(): Tree {
    return {
      feature: Int8Array.from(this.feature),
      threshold: Uint8Array.from(this.threshold),
      left: Int32Array.from(this.left),
      right: Int32Array.from(this.right),
      value: Float64Array.from(this.value),
    };
  }
}
