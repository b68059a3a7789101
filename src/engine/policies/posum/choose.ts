import { fc, FC_DEFAULTS, FcWeights, PosumScore } from '../../evaluate/posum-score';

/**
 * The choice among many scores. Eq. 5 is a distance between two scores, not an order; Fallow measures each
 * candidate's distance to the ideal point, the best value any candidate reaches in each component (all
 * three are lower-is-better), and takes the nearest. With one candidate best in everything that is the
 * candidate; otherwise the weights say how much a unit of each component costs, which is what alpha, beta
 * and gamma are for. Ties go to the earlier candidate (deterministic). Returns the index and each distance.
 */
export function choose(scores: readonly PosumScore[], w: FcWeights = FC_DEFAULTS): { index: number; distances: number[]; ideal: PosumScore } {
  const ideal: PosumScore = { vd: Infinity, sb: Infinity, c: Infinity };
  for (const s of scores) (ideal.vd = Math.min(ideal.vd, s.vd)), (ideal.sb = Math.min(ideal.sb, s.sb)), (ideal.c = Math.min(ideal.c, s.c));
  const distances = scores.map((s) => fc(s, ideal, w));
  let index = -1;
  distances.forEach((d, i) => {
    if (index < 0 || d < distances[index] - 1e-12) index = i;
  });
  return { index, distances, ideal };
}
