/**
 * Gradient-boosted regression trees for one quantile q (Friedman's gradient boosting with the quantile
 * loss, as in scikit-learn's GradientBoostingRegressor(loss="quantile")):
 *   F_0 = a per-row start value (the caller's)
 *   for each tree: draw a subsample; fit a depth-limited least-squares tree to the negative pinball
 *   gradient (q where y > F, q - 1 elsewhere); replace each leaf's value by the q-quantile of the
 *   residuals y - F of its rows (the loss-optimal constant for that leaf); F += shrinkage * tree.
 * The split search works on histograms of binned features (bins.ts), with the larger child's histogram
 * obtained by subtracting the smaller one's from the parent's. Because the gradient takes only two
 * values, a histogram needs only integer counts - rows per bin and rows with y > F per bin - and the
 * gradient sum of any range is nPos - (1 - q) n: one increment per row and feature, no floats.
 * Optional early stopping: rows from `validFrom` on never enter a tree; the model keeps the number of
 * trees with the lowest pinball loss on them (stopping once `patience` trees bring no improvement).
 */
import { Random } from '../random';
import { quantileInPlace } from './quantile';

export interface GbtOptions {
  /** Most trees (fewer with early stopping). */
  trees: number;
  maxDepth: number;
  learningRate: number;
  /** Probability that a row takes part in a tree (stochastic gradient boosting). */
  subsample: number;
  /** Fewest rows in a leaf: at q = 0.99 a leaf's quantile is close to its maximum, so leaves stay large. */
  minLeaf: number;
  seed: number;
  /** Early stopping: trees without a new best validation loss before boosting stops (default: never stop). */
  patience?: number;
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
  /** 1 where y > F (the gradient is q), 0 elsewhere (q - 1), for the rows of the current tree. */
  pos: Uint8Array;
  q: number;
  /** Scratch for the stable partition. */
  tmp: Uint32Array;
}

/**
 * Trains on row-major bins (n x nf, values < nb), targets y and start values f (modified: on return it
 * holds the returned model's prediction for every row). Rows [validFrom, n) only score trees for early
 * stopping (default n: no validation rows).
 */
export function trainGbt(bins: Uint8Array, nf: number, nb: number, y: Float64Array, f: Float64Array, q: number, o: GbtOptions, validFrom = y.length): Gbt {
  const n = Math.min(validFrom, y.length);
  const nAll = y.length;
  const rng = new Random(o.seed);
  const idx = new Uint32Array(n);
  const scratch = new Float64Array(n);
  const trees: Tree[] = [];
  const data: Data = { bins, nf, nb, pos: new Uint8Array(n), q, tmp: new Uint32Array(n) };
  const lr = o.learningRate;
  const inBag = new Uint8Array(n);
  // a row is in the bag when a random byte is below this: one 32-bit draw serves four rows
  const keep = Math.round(Math.min(1, o.subsample) * 256);
  const validating = nAll > n;
  let bestLoss = validating ? validationLoss(y, f, n, nAll, q) : 0;
  let bestTrees = 0;
  for (let t = 0; t < o.trees; t++) {
    // Bernoulli subsample in row order: rows stay ascending, so every pass over them walks memory forward
    let m = 0;
    let draw = 0;
    for (let i = 0; i < n; i++) {
      if ((i & 3) === 0) draw = rng.nextU32();
      inBag[i] = 0;
      if (((draw >>> ((i & 3) << 3)) & 255) >= keep) continue;
      inBag[i] = 1;
      idx[m++] = i;
      data.pos[i] = y[i] > f[i] ? 1 : 0;
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
    // ... and for the out-of-bag and validation rows by walking the tree
    for (let i = 0; i < nAll; i++) if (i >= n || !inBag[i]) f[i] += lr * tree.value[leafOf(tree, bins, i * nf)];
    trees.push(tree);
    if (!validating) continue;
    const loss = validationLoss(y, f, n, nAll, q);
    if (loss < bestLoss) {
      bestLoss = loss;
      bestTrees = trees.length;
    } else if (o.patience !== undefined && trees.length - bestTrees >= o.patience) break;
  }
  if (validating) {
    // drop the trees after the best validation loss, and their share of every prediction
    for (const tree of trees.splice(bestTrees)) for (let i = 0; i < nAll; i++) f[i] -= lr * tree.value[leafOf(tree, bins, i * nf)];
  }
  return { q, learningRate: lr, trees };
}

function validationLoss(y: Float64Array, f: Float64Array, from: number, to: number, q: number): number {
  let s = 0;
  for (let i = from; i < to; i++) {
    const u = y[i] - f[i];
    s += u >= 0 ? q * u : (q - 1) * u;
  }
  return s;
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

/** Per feature and bin, interleaved: [2 k] rows with y <= F, [2 k + 1] rows with y > F (k = f nb + bin). */
function histogram(d: Data, idx: Uint32Array, lo: number, hi: number): Int32Array {
  const { bins, nf, nb, pos } = d;
  const h = new Int32Array(2 * nf * nb);
  for (let k = lo; k < hi; k++) {
    const i = idx[k];
    const p = pos[i];
    const off = i * nf;
    for (let j = 0, base = 0; j < nf; j++, base += nb) h[((base + bins[off + j]) << 1) | p]++;
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
  grow(idx: Uint32Array, lo: number, hi: number, h: Int32Array, depth: number): number {
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
    // the parent's histogram becomes the larger child's; children at the depth limit need none
    let hl = h;
    let hr = h;
    if (depth + 1 < this.o.maxDepth) {
      const small = leftSmaller ? histogram(this.d, idx, lo, mid) : histogram(this.d, idx, mid, hi);
      for (let k = 0; k < h.length; k++) h[k] -= small[k];
      hl = leftSmaller ? small : h;
      hr = leftSmaller ? h : small;
    }
    this.feature[id] = f;
    this.threshold[id] = bin;
    this.left[id] = this.grow(idx, lo, mid, hl, depth + 1);
    this.right[id] = this.grow(idx, mid, hi, hr, depth + 1);
    return id;
  }

  /**
   * The split maximising the least-squares gain GL^2/nL + GR^2/nR - G^2/n with both sides >= minLeaf,
   * where a gradient sum over nPos rows with y > F among n is G = nPos q + (n - nPos)(q - 1) = nPos - (1 - q) n.
   */
  private bestSplit(h: Int32Array, n: number): { f: number; bin: number } | null {
    const { nf, nb, q } = this.d;
    const minLeaf = this.o.minLeaf;
    if (n < 2 * minLeaf) return null;
    let nPos = 0;
    for (let b = 0; b < nb; b++) nPos += h[2 * b + 1];
    const gTotal = nPos - (1 - q) * n;
    const parent = (gTotal * gTotal) / n;
    let best = 1e-12;
    let bf = -1;
    let bb = 0;
    for (let f = 0; f < nf; f++) {
      let nl = 0;
      let pl = 0;
      const base = 2 * f * nb;
      for (let b = 0; b < nb - 1; b++) {
        const neg = h[base + 2 * b];
        const p = h[base + 2 * b + 1];
        nl += neg + p;
        pl += p;
        if (nl < minLeaf) continue;
        const nr = n - nl;
        if (nr < minLeaf) break;
        const gl = pl - (1 - q) * nl;
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
