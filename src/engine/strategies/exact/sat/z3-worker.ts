import { Bool, Context, Model as Z3Model, Solver, init } from 'z3-solver';
import { raiseStop } from '../../../budget/stop-flag';
import { serveThread, ThreadTools } from '../../../threads/thread-entry';
import { SatProblem } from './encoding';
import { SatAnswer, SatEvent, SatRequest } from './protocol';

/**
 * The SAT thread (started by sat-runner.ts). Z3's check() is asynchronous but its WebAssembly work
 * is heavy, and when its heap (fixed at 2 GiB) runs out Emscripten aborts the thread: on a worker
 * thread of its own that abort ends only this thread, which the runner reports, and terminating the
 * thread frees all of Z3's memory. Z3's own memory ceiling (memory_max_size) normally answers
 * "unknown" long before that.
 *
 * The formula is the order encoding of start times (the CP-SAT/lazy-clause-generation view of
 * RCPSP): o[i][t] = "activity i starts at or before t", monotone in t, so precedences are binary
 * clauses and a running literal is o[i][t] and not o[i][t - d_i]; each resource and slot gets one
 * pseudo-Boolean row. Then, from the horizon down: solve, report the schedule, require a makespan one
 * slot shorter (start_i <= C - tail_i), solve again, until Z3 answers unsat (the last schedule is
 * optimal), or the time runs out.
 */
type Z3Ctx = Context<'main'>;
type BoolExpr = Bool<'main'>;
type Z3Solver = Solver<'main'>;

// The whole stack is the error's message (the runner keeps its first line, as for every solver thread).
serveThread<SatRequest, SatEvent, SatAnswer>(run, { describe: (e) => (e instanceof Error ? (e.stack ?? e.message) : String(e)) });

async function run(req: SatRequest, { emit: send }: ThreadTools<SatEvent>): Promise<SatAnswer> {
  const began = Date.now();
  const api = await init();
  api.setParam('memory_max_size', req.memoryMb);
  const Z3: Z3Ctx = api.Context('main');
  // QF_FD: Z3's incremental solver for finite-domain problems (SAT with native cardinality and
  // pseudo-Boolean constraints). The default solver's PB theory ran out of heap on j30 instances.
  const solver = new Z3.Solver('QF_FD');
  // Per query: a query that needs more answers unknown ("sat.max.conflicts"), as at the time limit.
  if (req.maxConflicts !== undefined) solver.set('max_conflicts', req.maxConflicts);
  const f = new Formula(Z3, req.problem);
  f.assertAll(solver);
  send({ type: 'ready', ms: Date.now() - began, variables: f.variables, rows: f.rows });
  let C = req.problem.horizon;
  let best = req.knownMakespan;
  for (;;) {
    const left = req.until - Date.now();
    if (left <= 0) return { type: 'unknown', reason: 'time limit', ms: Date.now() - began };
    if (!f.requireMakespan(solver, C)) return refuted(req, C, best, began);
    solver.set('timeout', Math.max(1, Math.floor(left)));
    const verdict = await solver.check();
    if (verdict === 'unsat') return refuted(req, C, best, began);
    if (verdict === 'unknown') return { type: 'unknown', reason: solver.reasonUnknown(), ms: Date.now() - began };
    const starts = f.startsOf(solver.model());
    const makespan = Math.max(...starts.map((s, i) => s + req.problem.dur[i]));
    best = Math.min(best, makespan);
    send({ type: 'sat', starts, makespan, ms: Date.now() - began });
    C = makespan - 1;
  }
}

/**
 * No schedule ends by C. When C is one below the best schedule known (the caller's or one found
 * here), that schedule is optimal: raised at once in shared memory, because a strategy racing this
 * one (auto's partner) may be in a synchronous loop that no message reaches.
 */
function refuted(req: SatRequest, C: number, best: number, began: number): SatAnswer {
  if (req.stopWhenOptimal && C + 1 >= best) raiseStop(new Int32Array(req.stopWhenOptimal));
  return { type: 'unsat', horizon: C, ms: Date.now() - began };
}

class Formula {
  /** o[i][t - es_i] for t in [es_i, ls_i - 1]: before es_i the literal is false, from ls_i on true. */
  private readonly o: BoolExpr[][];
  private readonly es: number[];
  private readonly ls: number[];
  private readonly T: BoolExpr;
  private readonly F: BoolExpr;
  variables = 0;
  rows = 0;

  constructor(
    private readonly Z3: Z3Ctx,
    private readonly p: SatProblem,
  ) {
    this.T = Z3.Bool.val(true);
    this.F = Z3.Bool.val(false);
    this.es = p.starts.map((s) => s[0]);
    this.ls = p.starts.map((s) => s[s.length - 1]);
    this.o = p.starts.map((_, i) => Array.from({ length: this.ls[i] - this.es[i] }, (_, k) => Z3.Bool.const(`o${i}_${this.es[i] + k}`)));
    this.variables = this.o.reduce((a, v) => a + v.length, 0);
  }

  /** start_i <= t, as a literal or a constant. */
  private at(i: number, t: number): BoolExpr {
    if (t < this.es[i]) return this.F;
    if (t >= this.ls[i]) return this.T;
    return this.o[i][t - this.es[i]];
  }

  assertAll(solver: Z3Solver): void {
    const { Z3, p } = this;
    const n = p.dur.length;
    for (let i = 0; i < n; i++) {
      const allowed = new Set(p.starts[i]);
      for (let t = this.es[i]; t < this.ls[i]; t++) {
        // Monotone: started by t means started by t + 1.
        if (t + 1 < this.ls[i]) solver.add(Z3.Implies(this.at(i, t), this.at(i, t + 1)));
        // A start slot outside the window's list (the node lacks room there): start != t.
        if (t > this.es[i] && !allowed.has(t)) solver.add(Z3.Implies(this.at(i, t), this.at(i, t - 1)));
      }
      // Precedence p -> i: start_i <= t implies start_p <= t - d_p, for every t up to ls_i.
      for (const q of p.preds[i]) {
        for (let t = this.es[i]; t <= this.ls[i]; t++) solver.add(Z3.Implies(this.at(i, t), this.at(q, t - p.dur[q])));
      }
    }
    for (const row of p.rows) this.assertRow(solver, row);
  }

  /** Sum of demand over the activities running at t is at most cap[t], for every slot t. */
  private assertRow(solver: Z3Solver, row: SatProblem['rows'][number]): void {
    const { Z3, p } = this;
    const n = p.dur.length;
    for (let t = 0; t < p.horizon; t++) {
      let fixed = 0;
      let possible = 0;
      const lits: BoolExpr[] = [];
      const coeffs: number[] = [];
      for (let i = 0; i < n; i++) {
        const q = row.demand[i];
        if (q <= 0 || t < this.es[i] || t >= this.ls[i] + p.dur[i]) continue;
        // Running at t: started by t and not by t - d_i. Constant when the window forces it.
        const on = this.at(i, t);
        const off = this.at(i, t - p.dur[i]);
        if (on === this.T && off === this.F) {
          fixed += q;
          continue;
        }
        if (on === this.F || off === this.T) continue;
        lits.push(on === this.T ? Z3.Not(off) : off === this.F ? on : Z3.And(on, Z3.Not(off)));
        coeffs.push(q);
        possible += q;
      }
      const room = row.cap[t] - fixed;
      if (room < 0) {
        solver.add(this.F);
        return;
      }
      if (possible <= room || lits.length === 0) continue;
      solver.add(Z3.PbLe(lits as [BoolExpr, ...BoolExpr[]], coeffs as [number, ...number[]], room));
      this.rows++;
    }
  }

  /** Adds "every activity ends by C" (with its tail); false when some window already rules it out. */
  requireMakespan(solver: Z3Solver, C: number): boolean {
    const { p } = this;
    for (let i = 0; i < p.dur.length; i++) {
      const latest = C - p.tail[i];
      if (latest < this.es[i]) return false;
      if (latest < this.ls[i]) solver.add(this.at(i, latest));
    }
    return true;
  }

  startsOf(model: Z3Model<'main'>): number[] {
    return this.o.map((lits, i) => {
      // The first t whose literal is true; ls_i when none is (its literal is the constant true).
      for (let k = 0; k < lits.length; k++) if (this.Z3.isTrue(model.eval(lits[k], true))) return this.es[i] + k;
      return this.ls[i];
    });
  }
}
