import { Model } from '../model/model';

/**
 * Cuckoo Alg. 1 (host weight): the processing capacity a host offers over the window given its
 * forecast CPU load and the safety margin,
 *   weight = sum over forecast points with load + sm < 100% of (cap - (load + sm) * cap) * sp,
 * with cap the host's GFLOP/s and sp the sampling period (slotSeconds). In Fallow `speed` is what one
 * task (one core) achieves, so the host's cap is speed x CPU cores; without a `cpu` metric, speed alone.
 * The result is in GFLOP, the unit of a task's estimated cost (Alg. 2 line 6).
 *
 * Checked against Alg. 1 (issue 25): lines 5-9 as written (sm added to each predicted load, points at or
 * above 100 % give nothing). III-C's prose example ("12 cores used in a 32 cores machine ... sm 10% ... 2
 * cores (from the 20 available) are removed") takes sm as a share of the *free* cores, where Alg. 1 line 6
 * takes it as a share of capacity (3.2 cores); the algorithm is followed.
 */
export function hostWeights(model: Model, fromSlot = 0): Float64Array {
  const { T, K } = model;
  const cpu = model.metrics.findIndex((m) => m.toLowerCase() === 'cpu');
  const sm = cpu >= 0 ? (model.doc.safetyMargin?.[model.metrics[cpu]] ?? 0) : 0;
  const w = new Float64Array(K);
  for (let k = 0; k < K; k++) {
    const cap = model.speed[k] * (cpu >= 0 ? model.capacity[k][cpu] : 1);
    const series = cpu >= 0 ? model.doc.usage?.[model.nodeIds[k]]?.[model.metrics[cpu]] : undefined;
    let weight = 0;
    for (let t = fromSlot; t < T; t++) {
      const load = (series && t < series.length ? series[t] : 0) + sm;
      if (load < 1) weight += (cap - load * cap) * model.slotSeconds;
    }
    w[k] = weight;
  }
  return w;
}
