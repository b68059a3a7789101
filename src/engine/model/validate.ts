import { ValidationError } from './errors';
import { MAX_REVENUE, MAX_SLOT_INDEX, MAX_SLOT_SECONDS, MAX_SPAN_SECONDS, MAX_TASK_SECONDS, PROTOTYPE_KEYS } from './input-bounds';
import { INSTANCE_FORMAT, InstanceDoc, Issue } from './types';
import { isInt, isNum, isObject, show } from './json-values';
import { reservedIssues } from './validate-reserved';
import { frozenIssues } from './validate-frozen';

export { isObject, show };

/**
 * Structural and semantic checks of a `fallow.instance/v1` document. Collects every problem (not just the
 * first) so a caller can fix them all in one round trip. Written by hand rather than with a schema
 * library because it also checks the cross-references (stage graph, usage per node) and must stay fast
 * on 10,000-task instances.
 */
export interface ValidateOptions {
  /**
   * A stage may give neither `work` nor `durationSeconds`: its durations are predicted from the runtime
   * history before it is solved (a stored batch). A document to compile must have them.
   */
  durationsMayBePredicted?: boolean;
}

export function validateInstance(raw: unknown, options: ValidateOptions = {}): InstanceDoc {
  const issues: Issue[] = [];
  const bad = (path: string, message: string) => issues.push({ path, message });
  if (!isObject(raw)) throw new ValidationError('instance', [{ path: '$', message: 'must be a JSON object' }]);
  const doc = raw as Record<string, unknown>;

  if (doc.format !== INSTANCE_FORMAT) bad('format', `must be "${INSTANCE_FORMAT}", got ${show(doc.format)}`);
  if (typeof doc.name !== 'string' || doc.name.length === 0) bad('name', 'must be a non-empty string');

  let T = 0;
  /** The slot length when valid: slot indices times it must stay within MAX_SPAN_SECONDS (a date). */
  let slotSeconds = 0;
  if (!isObject(doc.horizon)) bad('horizon', 'must be an object { slots, slotSeconds }');
  else {
    const h = doc.horizon as Record<string, unknown>;
    if (!isNum(h.slotSeconds) || (h.slotSeconds as number) <= 0 || (h.slotSeconds as number) > MAX_SLOT_SECONDS)
      bad('horizon.slotSeconds', `must be a number > 0 and at most ${MAX_SLOT_SECONDS} (a week), got ${show(h.slotSeconds)}`);
    else slotSeconds = h.slotSeconds as number;
    if (!isInt(h.slots) || (h.slots as number) < 1) bad('horizon.slots', `must be an integer >= 1, got ${show(h.slots)}`);
    else if (slotSeconds && (h.slots as number) * slotSeconds > MAX_SPAN_SECONDS)
      bad('horizon.slots', `${h.slots} slots of ${slotSeconds} s span more than ${MAX_SPAN_SECONDS} s (100 years)`);
    else T = h.slots as number;
  }

  const metrics = new Set<string>();
  if (!Array.isArray(doc.metrics) || doc.metrics.length === 0) bad('metrics', 'must be a non-empty array of names');
  else
    doc.metrics.forEach((m, i) => {
      if (typeof m !== 'string' || m.length === 0) bad(`metrics[${i}]`, 'must be a non-empty string');
      else if (PROTOTYPE_KEYS.has(m)) bad(`metrics[${i}]`, PROTOTYPE_NAME);
      else if (metrics.has(m)) bad(`metrics[${i}]`, `duplicate metric "${m}"`);
      else metrics.add(m);
    });

  if (doc.safetyMargin !== undefined) {
    if (!isObject(doc.safetyMargin)) bad('safetyMargin', 'must be an object of metric -> fraction');
    else
      for (const [m, v] of Object.entries(doc.safetyMargin as object)) {
        if (!metrics.has(m)) bad(`safetyMargin.${m}`, `unknown metric "${m}"`);
        if (!isNum(v) || v < 0 || v > 1) bad(`safetyMargin.${m}`, `must be a fraction in [0, 1], got ${show(v)}`);
      }
  }

  const nodeIds = new Set<string>();
  if (!Array.isArray(doc.nodes) || doc.nodes.length === 0) bad('nodes', 'must be a non-empty array');
  else
    doc.nodes.forEach((n, i) => {
      const p = `nodes[${i}]`;
      if (!isObject(n)) return bad(p, 'must be an object');
      const node = n as Record<string, unknown>;
      if (typeof node.id !== 'string' || node.id.length === 0) bad(`${p}.id`, 'must be a non-empty string');
      else if (PROTOTYPE_KEYS.has(node.id)) bad(`${p}.id`, PROTOTYPE_NAME);
      else if (nodeIds.has(node.id)) bad(`${p}.id`, `duplicate node id "${node.id}"`);
      else nodeIds.add(node.id);
      if (!isObject(node.capacity)) bad(`${p}.capacity`, 'must be an object of metric -> amount');
      else
        for (const [m, v] of Object.entries(node.capacity as object)) {
          if (!metrics.has(m)) bad(`${p}.capacity.${m}`, `unknown metric "${m}" (metrics are ${[...metrics].join(', ')})`);
          else if (!isNum(v) || v < 0) bad(`${p}.capacity.${m}`, `must be a number >= 0, got ${show(v)}`);
        }
      optional(node.speed, `${p}.speed`, (v) => isNum(v) && v > 0, 'a number > 0');
      optional(node.maxTasks, `${p}.maxTasks`, (v) => isInt(v) && v >= 0, 'an integer >= 0');
      optional(node.bandwidthMbps, `${p}.bandwidthMbps`, (v) => isNum(v) && v >= 0, 'a number >= 0');
      optional(node.costPerHour, `${p}.costPerHour`, (v) => isNum(v) && v >= 0, 'a number >= 0');
      optional(node.rack, `${p}.rack`, (v) => typeof v === 'string', 'a string');
      optional(node.flavor, `${p}.flavor`, (v) => typeof v === 'string', 'a string');
      if (node.lease !== undefined) {
        if (!isObject(node.lease)) bad(`${p}.lease`, 'must be an object { startupSeconds, minLeaseSeconds }');
        else {
          const l = node.lease as Record<string, unknown>;
          for (const k of ['startupSeconds', 'minLeaseSeconds']) if (!isNum(l[k]) || (l[k] as number) < 0) bad(`${p}.lease.${k}`, `must be a number >= 0, got ${show(l[k])}`);
          for (const k of Object.keys(l)) if (k !== 'startupSeconds' && k !== 'minLeaseSeconds') bad(`${p}.lease.${k}`, 'unknown field (expected startupSeconds or minLeaseSeconds)');
        }
      }
    });

  if (doc.usage !== undefined) {
    if (!isObject(doc.usage)) bad('usage', 'must be an object of node -> metric -> fractions');
    else
      for (const [k, per] of Object.entries(doc.usage as object)) {
        const p = `usage.${k}`;
        if (!nodeIds.has(k)) bad(p, `unknown node "${k}"`);
        if (!isObject(per)) {
          bad(p, 'must be an object of metric -> fractions');
          continue;
        }
        for (const [m, series] of Object.entries(per as object)) {
          if (!metrics.has(m)) bad(`${p}.${m}`, `unknown metric "${m}"`);
          if (!Array.isArray(series)) bad(`${p}.${m}`, 'must be an array of fractions, one per slot');
          else {
            if (T > 0 && series.length !== T) bad(`${p}.${m}`, `has ${series.length} values but horizon.slots is ${T}`);
            for (let t = 0; t < series.length; t++) {
              const v = series[t];
              if (typeof v !== 'number' || !(v >= 0) || v > 1) {
                bad(`${p}.${m}[${t}]`, `must be a fraction in [0, 1], got ${show(v)}`);
                break; // one message per series is enough
              }
            }
          }
        }
      }
  }

  if (doc.reserved !== undefined) {
    const nodes = new Map<string, { maxTasks?: unknown }>();
    if (Array.isArray(doc.nodes)) for (const n of doc.nodes) if (isObject(n) && typeof n.id === 'string' && nodeIds.has(n.id)) nodes.set(n.id, n);
    issues.push(...reservedIssues(doc.reserved, nodes, metrics, T > 0 ? T : Infinity));
  }

  if (doc.network !== undefined) {
    if (!isObject(doc.network)) bad('network', 'must be an object { intraRackMbps, interRackMbps }');
    else {
      const net = doc.network as Record<string, unknown>;
      for (const k of ['intraRackMbps', 'interRackMbps']) if (!isNum(net[k]) || (net[k] as number) <= 0) bad(`network.${k}`, `must be a number > 0, got ${show(net[k])}`);
      for (const k of Object.keys(net)) if (k !== 'intraRackMbps' && k !== 'interRackMbps') bad(`network.${k}`, 'unknown field (expected intraRackMbps or interRackMbps)');
    }
  }

  const jobIds = new Set<string>();
  if (!Array.isArray(doc.jobs)) bad('jobs', 'must be an array');
  else doc.jobs.forEach((j, i) => validateJob(j, `jobs[${i}]`, metrics, jobIds, nodeIds, bad, options, slotSeconds));

  if (doc.frozen !== undefined) issues.push(...frozenIssues(doc.frozen, doc.jobs, nodeIds, T));

  if (issues.length > 0) throw new ValidationError('instance', issues);
  return raw as InstanceDoc;

  function optional(v: unknown, path: string, ok: (v: any) => boolean, what: string) {
    if (v !== undefined && v !== null && !ok(v)) bad(path, `must be ${what}, got ${show(v)}`);
  }
}

function validateJob(
  j: unknown,
  p: string,
  metrics: Set<string>,
  jobIds: Set<string>,
  nodeIds: Set<string>,
  bad: (path: string, message: string) => void,
  options: ValidateOptions,
  slotSeconds: number,
) {
  if (!isObject(j)) return bad(p, 'must be an object');
  const job = j as Record<string, unknown>;
  if (typeof job.id !== 'string' || job.id.length === 0) bad(`${p}.id`, 'must be a non-empty string');
  else if (jobIds.has(job.id)) bad(`${p}.id`, `duplicate job id "${job.id}"`);
  else jobIds.add(job.id);
  for (const k of ['releaseSlot', 'deadlineSlot']) {
    const v = job[k];
    if (v === undefined || (v === null && k === 'deadlineSlot')) continue;
    if (!isInt(v) || v < 0 || v > MAX_SLOT_INDEX) bad(`${p}.${k}`, `must be an integer in [0, ${MAX_SLOT_INDEX}], got ${show(v)}`);
    else if (slotSeconds && v * slotSeconds > MAX_SPAN_SECONDS) bad(`${p}.${k}`, `slot ${v} of ${slotSeconds} s is more than ${MAX_SPAN_SECONDS} s (100 years) after slot 0`);
  }
  if (job.class !== undefined && job.class !== 'batch' && job.class !== 'deadline')
    bad(`${p}.class`, `must be "batch" or "deadline", got ${show(job.class)}`);
  if (job.replication !== undefined && (!isInt(job.replication) || (job.replication as number) < 1))
    bad(`${p}.replication`, `must be an integer >= 1, got ${show(job.replication)}`);
  for (const k of ['mapClass', 'reduceClass'])
    if (job[k] !== undefined && (typeof job[k] !== 'string' || (job[k] as string).length === 0 || (job[k] as string).length > 200))
      bad(`${p}.${k}`, `must be a string of 1 to 200 characters, got ${show(job[k])}`);
  if (job.revenue !== undefined) {
    if (!isObject(job.revenue)) bad(`${p}.revenue`, 'must be an object { onTime, late }');
    else
      for (const [k, v] of Object.entries(job.revenue as object)) {
        if (k !== 'onTime' && k !== 'late') bad(`${p}.revenue.${k}`, 'unknown field (expected onTime or late)');
        else if (!isNum(v) || Math.abs(v) > MAX_REVENUE) bad(`${p}.revenue.${k}`, `must be a number in [-${MAX_REVENUE}, ${MAX_REVENUE}], got ${show(v)}`);
      }
  }
  if (!Array.isArray(job.stages) || job.stages.length === 0) return bad(`${p}.stages`, 'must be a non-empty array');
  const stageIds = new Map<string, number>();
  job.stages.forEach((s, si) => {
    if (isObject(s) && typeof (s as any).id === 'string' && (s as any).id.length > 0) {
      if (stageIds.has((s as any).id)) bad(`${p}.stages[${si}].id`, `duplicate stage id "${(s as any).id}"`);
      else stageIds.set((s as any).id, si);
    }
  });
  const graph: number[][] = job.stages.map(() => []);
  job.stages.forEach((s, si) => {
    const sp = `${p}.stages[${si}]`;
    if (!isObject(s)) return bad(sp, 'must be an object');
    const st = s as Record<string, unknown>;
    if (typeof st.id !== 'string' || st.id.length === 0) bad(`${sp}.id`, 'must be a non-empty string');
    if (!isInt(st.tasks) || (st.tasks as number) < 1) bad(`${sp}.tasks`, `must be an integer >= 1, got ${show(st.tasks)}`);
    if (!isObject(st.demand)) bad(`${sp}.demand`, 'must be an object of metric -> amount per task');
    else
      for (const [m, v] of Object.entries(st.demand as object)) {
        if (!metrics.has(m)) bad(`${sp}.demand.${m}`, `unknown metric "${m}"`);
        else if (!isNum(v) || v < 0) bad(`${sp}.demand.${m}`, `must be a number >= 0, got ${show(v)}`);
      }
    const hasWork = st.work !== undefined && st.work !== null;
    const hasDur = st.durationSeconds !== undefined && st.durationSeconds !== null;
    if (hasWork && hasDur) bad(sp, 'must give exactly one of "work" (GFLOP per task) and "durationSeconds"');
    else if (!hasWork && !hasDur && !options.durationsMayBePredicted)
      bad(sp, 'must give exactly one of "work" (GFLOP per task) and "durationSeconds" (a stored batch may leave both out: they are predicted)');
    else if (hasWork && (!isNum(st.work) || (st.work as number) <= 0)) bad(`${sp}.work`, `must be a number > 0, got ${show(st.work)}`);
    else if (hasDur && !isTaskSeconds(st.durationSeconds)) bad(`${sp}.durationSeconds`, `must be a number > 0 and at most ${MAX_TASK_SECONDS} (a year), got ${show(st.durationSeconds)}`);
    if (st.defaultDurationSeconds !== undefined && !isTaskSeconds(st.defaultDurationSeconds))
      bad(`${sp}.defaultDurationSeconds`, `must be a number > 0 and at most ${MAX_TASK_SECONDS} (a year), got ${show(st.defaultDurationSeconds)}`);
    if (st.inputMB !== undefined && (!isNum(st.inputMB) || (st.inputMB as number) < 0))
      bad(`${sp}.inputMB`, `must be a number >= 0, got ${show(st.inputMB)}`);
    if (st.outputMB !== undefined && (!isNum(st.outputMB) || (st.outputMB as number) < 0))
      bad(`${sp}.outputMB`, `must be a number >= 0, got ${show(st.outputMB)}`);
    if (st.blocks !== undefined) validateBlocks(st.blocks, st.tasks, `${sp}.blocks`, nodeIds, bad);
    if (st.after !== undefined) {
      if (!Array.isArray(st.after)) bad(`${sp}.after`, 'must be an array of stage ids');
      else
        st.after.forEach((a, ai) => {
          const idx = typeof a === 'string' ? stageIds.get(a) : undefined;
          if (idx === undefined) bad(`${sp}.after[${ai}]`, `unknown stage ${show(a)}`);
          else if (idx === si) bad(`${sp}.after[${ai}]`, 'a stage cannot come after itself');
          else graph[si].push(idx);
        });
    }
  });
  const cycle = findCycle(graph);
  if (cycle) {
    const names = cycle.map((i) => (job.stages as any[])[i]?.id);
    bad(`${p}.stages`, `the stage graph has a cycle: ${names.join(' -> ')}`);
  }
}

/** Most messages about one stage's blocks: a stage of 2,000 tasks with a wrong node everywhere needs one line, not 2,000. */
const BLOCK_MESSAGES = 20;

/** `blocks`: one list of replica node ids per task, each known, distinct, at least one and at most the cluster's nodes. */
function validateBlocks(raw: unknown, tasks: unknown, p: string, nodeIds: Set<string>, bad: (path: string, message: string) => void) {
  if (!Array.isArray(raw)) return bad(p, 'must be an array with one list of replica node ids per task');
  if (isInt(tasks) && raw.length !== tasks) bad(p, `has ${raw.length} entries but the stage has ${tasks} tasks (one list of replica nodes per task)`);
  let messages = 0;
  let more = 0;
  const say = (path: string, message: string) => (messages++ < BLOCK_MESSAGES ? bad(path, message) : more++);
  raw.forEach((replicas, t) => {
    const tp = `${p}[${t}]`;
    if (!Array.isArray(replicas) || replicas.length === 0) return say(tp, `must be a non-empty array of node ids, got ${show(replicas)}`);
    if (replicas.length > nodeIds.size) say(tp, `has ${replicas.length} replicas but the cluster has ${nodeIds.size} nodes`);
    const seen = new Set<unknown>();
    replicas.forEach((n, r) => {
      if (typeof n !== 'string' || !nodeIds.has(n)) say(`${tp}[${r}]`, `unknown node ${show(n)}`);
      else if (seen.has(n)) say(`${tp}[${r}]`, `node "${n}" holds this block twice`);
      seen.add(n);
    });
  });
  if (more > 0) bad(p, `and ${more} more problems in this stage's blocks`);
}

/** Returns the stage indices of one cycle in `preds` (edges i -> pred), or null when it is a DAG. */
function findCycle(preds: number[][]): number[] | null {
  const state = new Uint8Array(preds.length); // 0 new, 1 on stack, 2 done
  const stack: number[] = [];
  const visit = (v: number): number[] | null => {
    state[v] = 1;
    stack.push(v);
    for (const w of preds[v]) {
      if (state[w] === 1) return [...stack.slice(stack.indexOf(w)), w].reverse();
      if (state[w] === 0) {
        const c = visit(w);
        if (c) return c;
      }
    }
    stack.pop();
    state[v] = 2;
    return null;
  };
  for (let v = 0; v < preds.length; v++) if (state[v] === 0) {
    const c = visit(v);
    if (c) return c;
  }
  return null;
}

const PROTOTYPE_NAME = `must not be ${[...PROTOTYPE_KEYS].join(', ')}: node ids and metric names are keys of usage, capacity and demand objects, where prototype keys are refused`;

function isTaskSeconds(v: unknown): boolean {
  return isNum(v) && v > 0 && v <= MAX_TASK_SECONDS;
}

