import { CAPACITY_EPS, Model, StageModel } from '../model/model';

/**
 * Earliest slot by which one task of stage s, started no earlier than est, can end on any node if it ran
 * alone on the empty cluster against the time-varying availability; T + 1 when it cannot end by T.
 */
export function earliestEnd(model: Model, s: StageModel, est: number): number {
  const { T, M, K } = model;
  let finish = T + 1;
  for (let k = 0; k < K; k++) {
    if (model.maxTasks[k] < 1) continue;
    const d = s.dur[k];
    const av = model.avail[k];
    let run = est;
    for (let t = est; run + d <= T && run + d < finish; t++) {
      let ok = true;
      for (let m = 0; m < M && ok; m++) ok = s.demand[m] <= av[m * T + t] + CAPACITY_EPS;
      if (!ok) run = t + 1;
      else if (t - run + 1 >= d) {
        finish = run + d;
        break;
      }
    }
  }
  return finish;
}
