import { Model, NO_TASK_LIMIT } from '../../model/model';
import { Windows, lastIndexAtMost } from './windows';

/**
 * Constraint propagation on the time windows of a deadline problem "every job runs and ends by the
 * horizon", for models with one node and single-task stages (the RCPSP shape: PSPLIB and the like).
 * It narrows every start window with three classic rules and, at their fixpoint, energetic reasoning;
 * each rule only removes start times that no schedule ending by the horizon can use, so:
 *   - a window that empties proves the horizon too short (destructive lower bounding), and
 *   - the surviving windows are valid for the MILP, which gets fewer columns and a tighter LP.
 * Rules: precedence (heads and tails), time-tabling (a start must fit next to the compulsory parts of
 * the other activities) and disjunctive pairs (two activities that can never overlap and cannot be
 * in one order must be in the other).
 */

/** Demand sums may exceed the capacity by this much and still count as fitting: errs on the safe side. */
const FIT_TOL = 1e-6;

/** Above this many activities the pairwise tables (n^2) and the checks cost more than they bring. */
const MAX_ACTIVITIES = 1000;

/** Energetic reasoning is skipped when intervals x activities x resources exceed this (about 0.1 s). */
const ENERGETIC_WORK_LIMIT = 50_000_000;

/** Whether propagate() can reason about the model (otherwise it leaves the windows alone). */
export function propagationApplies(model: Model): boolean {
  return model.K === 1 && model.stages.length <= MAX_ACTIVITIES && model.stages.every((s) => s.tasks === 1);
}

/**
 * Narrows w in place (es, ef, lf and the slots of node 0). Returns false when it proves that no
 * schedule of all jobs ends by w.horizon, starting with the windows' own verdict (some job has no
 * room at all); beyond that it does nothing when propagationApplies is false.
 */
export function propagate(model: Model, w: Windows, shaveUntil = 0): boolean {
  if (w.jobFeasible.some((f) => f === 0)) return false;
  if (!propagationApplies(model)) return true;
  const p = new Propagator(model, w);
  if (!p.consistent() || !p.shave(shaveUntil)) return false;
  p.writeBack();
  return true;
}

class Propagator {
  private readonly n: number;
  private readonly H: number;
  /** Metrics plus, when node 0 limits its task count, one more with demand 1 per activity. */
  private readonly R: number;
  private readonly d: Int32Array;
  private readonly q: Float64Array[];
  /** cap[r][t], t < H. */
  private readonly cap: Float64Array[];
  private readonly capMax: Float64Array;
  private readonly est: Int32Array;
  private readonly lst: Int32Array;
  /** Compulsory part [cpFrom, cpTo) of each activity as counted in the profile. */
  private readonly cpFrom: Int32Array;
  private readonly cpTo: Int32Array;
  private readonly profile: Float64Array[];
  private readonly disjoint: Uint8Array[];

  constructor(
    private readonly model: Model,
    private readonly w: Windows,
  ) {
    const { M, T } = model;
    this.n = model.stages.length;
    this.H = w.horizon;
    const limited = model.maxTasks[0] !== NO_TASK_LIMIT;
    this.R = M + (limited ? 1 : 0);
    this.d = Int32Array.from(model.stages, (s) => s.dur[0]);
    this.q = Array.from({ length: this.R }, (_, r) => Float64Array.from(model.stages, (s) => (r < M ? s.demand[r] : 1)));
    this.cap = Array.from({ length: this.R }, (_, r) =>
      Float64Array.from({ length: this.H }, (_, t) => (r < M ? model.avail[0][r * T + t] : model.taskLimit[0][t])),
    );
    this.capMax = Float64Array.from(this.cap, (c) => c.reduce((a, b) => Math.max(a, b), 0));
    this.est = new Int32Array(this.n);
    this.lst = new Int32Array(this.n);
    for (let g = 0; g < this.n; g++) {
      const slots = w.slots[g][0];
      this.est[g] = slots[0];
      this.lst[g] = slots[slots.length - 1];
    }
    this.cpFrom = new Int32Array(this.n);
    this.cpTo = new Int32Array(this.n);
    this.profile = Array.from({ length: this.R }, () => new Float64Array(this.H));
    this.disjoint = Array.from({ length: this.n }, (_, a) => Uint8Array.from({ length: this.n }, (_, b) => (a !== b && this.clash(a, b) ? 1 : 0)));
  }

  /** Two activities whose demands together exceed the largest capacity on some resource. */
  private clash(a: number, b: number): boolean {
    for (let r = 0; r < this.R; r++) if (this.q[r][a] + this.q[r][b] > this.capMax[r] + FIT_TOL) return true;
    return false;
  }

  /** The fixpoint of the rules and energetic reasoning (the costliest, so run only at the rules' fixpoint). */
  consistent(): boolean {
    for (;;) {
      if (!this.fixpoint()) return false;
      const e = this.energetic();
      if (!e.ok) return false;
      if (!e.changed) return true;
    }
  }

  /**
   * Shaving: an activity that cannot start at the edge of its window (fixing it there makes
   * consistent() fail) loses that start; repeated until nothing moves or the clock (absolute ms)
   * runs out. Much stronger than the rules alone on tightly constrained instances.
   */
  shave(until: number): boolean {
    const { est, lst, n } = this;
    const savedEst = new Int32Array(n);
    const savedLst = new Int32Array(n);
    const probe = (g: number, at: number): boolean => {
      savedEst.set(est);
      savedLst.set(lst);
      est[g] = lst[g] = at;
      const ok = this.consistent();
      est.set(savedEst);
      lst.set(savedLst);
      return ok;
    };
    for (let moved = true; moved && Date.now() < until; ) {
      moved = false;
      for (let g = 0; g < n && Date.now() < until; g++) {
        while (est[g] < lst[g] && Date.now() < until && !probe(g, est[g])) {
          est[g]++;
          moved = true;
        }
        while (est[g] < lst[g] && Date.now() < until && !probe(g, lst[g])) {
          lst[g]--;
          moved = true;
        }
        if (moved && !this.consistent()) return false;
      }
    }
    // Also rebuilds the profile for the final windows (the probes left theirs behind): writeBack reads it.
    return this.consistent();
  }

  private fixpoint(): boolean {
    for (let changed = true; changed; ) {
      changed = false;
      const before = this.est.reduce((a, b) => a + b, 0) - this.lst.reduce((a, b) => a + b, 0);
      if (!this.precedence() || !this.disjunctive() || !this.timetable()) return false;
      const after = this.est.reduce((a, b) => a + b, 0) - this.lst.reduce((a, b) => a + b, 0);
      changed = after !== before;
    }
    return true;
  }

  /** Heads and tails along the stage graph (job.stages is in topological order). */
  private precedence(): boolean {
    const { model, est, lst, d } = this;
    for (const job of model.jobs) {
      for (const g of job.stages) for (const p of model.stages[g].preds) est[g] = Math.max(est[g], est[p] + d[p]);
      for (let i = job.stages.length - 1; i >= 0; i--) {
        const g = job.stages[i];
        for (const h of model.stages[g].succs) lst[g] = Math.min(lst[g], lst[h] - d[g]);
      }
    }
    for (let g = 0; g < this.n; g++) if (est[g] > lst[g]) return false;
    return true;
  }

  /** a and b never overlap; when a cannot end before b's latest start, b comes first. */
  private disjunctive(): boolean {
    const { est, lst, d, n } = this;
    for (let a = 0; a < n; a++)
      for (let b = 0; b < n; b++) {
        if (!this.disjoint[a][b] || est[a] + d[a] <= lst[b]) continue;
        est[a] = Math.max(est[a], est[b] + d[b]);
        lst[b] = Math.min(lst[b], lst[a] - d[b]);
        if (est[a] > lst[a] || est[b] > lst[b]) return false;
      }
    return true;
  }

  /** Builds the compulsory-part profile, then moves every window edge past the slots where it cannot fit. */
  private timetable(): boolean {
    const { est, lst, d, n, R, H } = this;
    for (let r = 0; r < R; r++) this.profile[r].fill(0);
    for (let g = 0; g < n; g++) {
      this.cpFrom[g] = lst[g];
      this.cpTo[g] = Math.min(H, est[g] + d[g]);
      for (let t = this.cpFrom[g]; t < this.cpTo[g]; t++) for (let r = 0; r < R; r++) this.profile[r][t] += this.q[r][g];
    }
    for (let g = 0; g < n; g++) {
      let t = est[g];
      for (let s = this.lastConflict(g, t); s >= 0 && t <= lst[g]; s = this.lastConflict(g, t)) t = s + 1;
      if (t > lst[g]) return false;
      est[g] = t;
      t = lst[g];
      for (let s = this.firstConflict(g, t); s >= 0 && t >= est[g]; s = this.firstConflict(g, t)) t = s - d[g];
      if (t < est[g]) return false;
      lst[g] = t;
    }
    return true;
  }

  /** Whether activity g cannot run at slot s next to the others' compulsory parts. */
  private conflictAt(g: number, s: number): boolean {
    if (s >= this.H) return true;
    const own = s >= this.cpFrom[g] && s < this.cpTo[g];
    for (let r = 0; r < this.R; r++) {
      const q = this.q[r][g];
      if (q === 0) continue;
      const others = this.profile[r][s] - (own ? q : 0);
      if (others + q > this.cap[r][s] + FIT_TOL) return true;
    }
    return false;
  }

  private lastConflict(g: number, t: number): number {
    for (let s = t + this.d[g] - 1; s >= t; s--) if (this.conflictAt(g, s)) return s;
    return -1;
  }

  private firstConflict(g: number, t: number): number {
    for (let s = t; s < t + this.d[g]; s++) if (this.conflictAt(g, s)) return s;
    return -1;
  }

  /**
   * Energetic reasoning (Baptiste, Le Pape, Nuijten), adjusting the windows. In an interval [a, b) each
   * activity must run at least its minimal intrusion there (the smaller of its overlaps when left- or
   * right-most: the overlap of a fixed-length job with an interval is unimodal in its start); the sum
   * over all activities cannot exceed the capacity there (the check). Beyond it, activity g can take at
   * most m = floor(slack / q) units of [a, b), slack being the capacity left by the others' minimal
   * intrusions. When m < d[g], every start s in [est, b - m) overlaps the interval by more than m
   * (the overlap does not decrease from est up to a, and is min(d, b - s) > m from a to b - m), so est
   * rises to b - m when est's own overlap exceeds m; symmetrically lst falls to a + m - d. Returns false
   * on a contradiction; `changed` says whether some window moved.
   */
  private energetic(): { ok: boolean; changed: boolean } {
    const { est, lst, d, n, R, H } = this;
    const lefts = [...new Set([...est, ...lst])].sort((x, y) => x - y);
    const rights = [...new Set([...Array.from(est, (e, g) => e + d[g]), ...Array.from(lst, (l, g) => l + d[g])])].sort((x, y) => x - y);
    // Skipping the reasoning only weakens the propagation; it never makes it wrong.
    if (lefts.length * rights.length * n * R > ENERGETIC_WORK_LIMIT) return { ok: true, changed: false };
    const prefix = this.cap.map((c) => {
      const s = new Float64Array(H + 1);
      for (let t = 0; t < H; t++) s[t + 1] = s[t] + c[t];
      return s;
    });
    // The largest energy (demand x duration) of an activity per resource: where the capacity left free
    // by all minimal intrusions is at least that, no activity can be pushed out of the interval.
    const maxEnergy = Float64Array.from(this.q, (q) => q.reduce((m, x, g) => Math.max(m, x * d[g]), 0));
    const need = new Float64Array(R);
    const inside = new Int32Array(n);
    let changed = false;
    for (const a of lefts)
      for (const b of rights) {
        if (b <= a || b > H) continue;
        need.fill(0);
        for (let g = 0; g < n; g++) {
          const left = Math.max(0, Math.min(b, est[g] + d[g]) - Math.max(a, est[g]));
          const right = Math.max(0, Math.min(b, lst[g] + d[g]) - Math.max(a, lst[g]));
          inside[g] = Math.min(left, right);
          if (inside[g] > 0) for (let r = 0; r < R; r++) need[r] += inside[g] * this.q[r][g];
        }
        let tight = false;
        for (let r = 0; r < R; r++) {
          const free = prefix[r][b] - prefix[r][a] - need[r];
          if (free < -FIT_TOL * (b - a + 1)) return { ok: false, changed };
          if (free < maxEnergy[r]) tight = true;
        }
        if (!tight) continue;
        for (let g = 0; g < n; g++) {
          let m = d[g];
          for (let r = 0; r < R && m > 0; r++) {
            const q = this.q[r][g];
            if (q === 0) continue;
            const slack = prefix[r][b] - prefix[r][a] - (need[r] - inside[g] * q);
            m = Math.min(m, Math.max(0, Math.floor((slack + FIT_TOL * (b - a + 1)) / q)));
          }
          if (m >= d[g]) continue;
          const overlapAt = (s: number) => Math.max(0, Math.min(b, s + d[g]) - Math.max(a, s));
          if (overlapAt(est[g]) > m && b - m > est[g]) {
            est[g] = b - m;
            changed = true;
          }
          if (overlapAt(lst[g]) > m && a + m - d[g] < lst[g]) {
            lst[g] = a + m - d[g];
            changed = true;
          }
          // The intrusions summed above were computed on the old windows; they only grow as windows
          // shrink, so the slack used for the other activities stays an over-estimate: still sound.
          if (est[g] > lst[g]) return { ok: false, changed };
        }
      }
    return { ok: true, changed };
  }

  /** Narrowed windows back into w: slots outside them, or where the task cannot fit, are dropped. */
  writeBack(): void {
    const { w, est, lst, d } = this;
    for (let g = 0; g < this.n; g++) {
      const slots = w.slots[g][0];
      const lo = lastIndexAtMost(slots, est[g] - 1) + 1;
      const hi = lastIndexAtMost(slots, lst[g]);
      const kept = Array.from(slots.subarray(lo, hi + 1)).filter((t) => this.lastConflict(g, t) < 0);
      w.slots[g][0] = Int32Array.from(kept);
      w.es[g] = kept[0];
      w.ef[g] = kept[0] + d[g];
      w.lf[g] = kept[kept.length - 1] + d[g];
    }
  }
}
