import { Model } from '../model/model';

export interface WrrResult {
  /** Per job: 1 accepted, 0 rejected (not enough weight left for one of its chunks). */
  accepted: Uint8Array;
  /** Per task: replica nodes of its chunk (null for a task that reads none or a rejected job's). */
  replicas: (number[] | null)[];
  /** Host weights left after every accepted job took its share. */
  weights: Float64Array;
}

/**
 * Cuckoo Alg. 2 (data placement): jobs in order; for each chunk, `replication` times, a host not yet holding
 * that chunk receives a replica by weighted round-robin over the hosts' remaining weights, and its weight drops
 * by the chunk's estimated task cost (line 10). When no host has weight left for a chunk's cost, the job is
 * rejected (the "rejection message") and the weight it took is given back. Tasks that read no chunk still
 * consume their cost on the host WRR picks, so acceptance accounts for the whole job.
 *
 * Cost of a task on host k: its work in GFLOP, or durationSeconds x speed(k) for a fixed-duration stage.
 *
 * The round-robin is a smooth weighted round-robin (each pick adds every eligible host's weight to its credit,
 * takes the host with the most credit and charges it the eligible hosts' total): over many picks each host
 * receives chunks in proportion to its weight, and within a round the heavier hosts are picked first. That is
 * Cuckoo III-C's "data chunks are distributed proportionally to the weight assigned to each host" and Alg. 2's
 * "based on WRR ... the hosts with higher weights are selected first" read together. Issue 25: the previous
 * reading (always the host with the highest remaining weight) is not round-robin at all: host weights are GFLOP
 * over 24 h, far above one job's cost, so every replica of every chunk went to the same top 3 hosts. The job
 * then waited for 640 chunks over each of their links (staging 218.5 min in the sweep, the whole 80 GB through
 * one 50 Mbps link) and every other host read its maps remotely (62% remote on PC-2, where Cuckoo's paper
 * reports 6-14%, its Table IV).
 */
export function wrrPlacement(model: Model, weights: Float64Array): WrrResult {
  const w = Float64Array.from(weights);
  const credit = new Float64Array(model.K); // the smooth round-robin's running credit per host
  const accepted = new Uint8Array(model.jobs.length);
  const replicas: (number[] | null)[] = new Array(model.nTasks).fill(null);
  const work = model.stages.map((s) => s.work ?? -(s.durationSeconds ?? 0));
  const cost = (g: number, k: number) => (work[g] >= 0 ? work[g] : -work[g] * model.speed[k]);
  for (let j = 0; j < model.jobs.length; j++) {
    const job = model.jobs[j];
    const before = Float64Array.from(w);
    const creditBefore = Float64Array.from(credit);
    let ok = true;
    for (let i = job.firstTask; i < job.firstTask + job.taskCount && ok; i++) {
      const g = model.taskStage[i];
      const hasChunk = model.stages[g].inputMB > 0;
      const copies = hasChunk ? Math.min(job.replication, model.K) : 1;
      const nodes: number[] = [];
      for (let r = 0; r < copies; r++) {
        const best = pick(w, credit, (k) => !nodes.includes(k) && w[k] >= cost(g, k));
        if (best < 0) {
          ok = false;
          break;
        }
        w[best] -= cost(g, best);
        nodes.push(best);
      }
      if (ok && hasChunk) replicas[i] = nodes;
    }
    if (ok) accepted[j] = 1;
    else {
      w.set(before);
      credit.set(creditBefore);
      for (let i = job.firstTask; i < job.firstTask + job.taskCount; i++) replicas[i] = null;
    }
  }
  return { accepted, replicas, weights: w };
}

/**
 * One smooth weighted round-robin pick among the hosts `eligible` accepts: each gains its weight in credit,
 * the one with the most credit (the lower index on a tie) is picked and pays the eligible hosts' total weight.
 * -1 when no host is eligible.
 */
function pick(w: Float64Array, credit: Float64Array, eligible: (k: number) => boolean): number {
  let best = -1;
  let total = 0;
  for (let k = 0; k < w.length; k++) {
    if (!eligible(k)) continue;
    credit[k] += w[k];
    total += w[k];
    if (best < 0 || credit[k] > credit[best]) best = k;
  }
  if (best >= 0) credit[best] -= total;
  return best;
}
