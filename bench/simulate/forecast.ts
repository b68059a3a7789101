/**
 * The forecast the simulation benchmark's approaches plan with, built by the forecasting builder
 * (src/engine/forecast, Cuckoo III-B) from the real Bitbrains VM traces the instance's hosts replay.
 *
 * gen-instance.py (../shared/tools) gives host k of an `ephemeral` instance the k-th VM file listed in
 * `provenance.usage` and replays that file's rows from row `provenance.offsetSamples` on (5-minute rows,
 * one row per 300 / slotSeconds slots; row indices, not timestamps). The benchmark's forecast instance is
 * generated at offset d (the forecast day) and its actual usage 288 rows later (d + 288: the held-out
 * next day). Here, per host, the builder trains on every row of its VM before the held-out row d + 288
 * (all the earlier days, the forecast day included) and forecasts the held-out window at q = 0.99, the
 * level Cuckoo and Salamander use. The trace files are read in place, never copied.
 *
 * Time alignment: the builder's slots are aligned to the epoch while Bitbrains samples are not (they sit
 * 204 s past a 5-minute boundary), and a VM with missing rows reaches a given row index later than the
 * others. Each VM's timestamps are shifted so that its held-out row starts exactly at one common, aligned
 * instant; the shift is at most a few samples, which moves the time-of-day features by minutes.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { forecast, parseBitbrainsVm, Series, trainForecaster, UsageHistory } from '../../src/engine/forecast';
import { InstanceDoc } from '../../src/engine/model/types';

/** Bitbrains' sampling period: one trace row per 5 minutes. */
export const TRACE_ROW_SECONDS = 300;
/** Rows per day: the actual (held-out) day starts this many rows after the forecast day. */
export const DAY_ROWS = 288;
/** Forecast quantile (Salamander IV and Cuckoo IV forecast the 99th percentile). */
export const FORECAST_QUANTILE = 0.99;

/** Where each host's load comes from, as gen-instance.py wrote it into the instance. */
export interface HostTrace {
  node: string;
  vmFile: string;
}

export interface TraceSource {
  hosts: HostTrace[];
  /** Row of every VM file that the forecast instance's slot 0 replays (the forecast day's start). */
  offsetRows: number;
}

/** Reads gen-instance.py's provenance: "Bitbrains GWA-T-12 Rnd 2013-7 VMs 42.csv,43.csv,..." in node order. */
export function traceSource(doc: InstanceDoc): TraceSource {
  const prov = (doc as { provenance?: { usage?: unknown; offsetSamples?: unknown } }).provenance;
  const m = typeof prov?.usage === 'string' ? /VMs (\S+)$/.exec(prov.usage) : null;
  if (!m || typeof prov?.offsetSamples !== 'number') throw new Error(`${doc.name}: no gen-instance.py provenance (usage VM list, offsetSamples)`);
  const files = m[1].split(',');
  if (files.length !== doc.nodes.length) throw new Error(`${doc.name}: provenance lists ${files.length} VM files for ${doc.nodes.length} hosts`);
  return { hosts: doc.nodes.map((n, k) => ({ node: n.id, vmFile: files[k] })), offsetRows: prov.offsetSamples };
}

export interface BuiltForecast {
  /** node -> metric -> one fraction per slot of the instance: what the approaches plan with. */
  usage: InstanceDoc['usage'];
  /** Rows of history the builder trained on, per host (fewer when the VM misses rows). */
  historyRows: number[];
  /** Hosts whose held-out window runs past the end of the trace (the generator wraps to its start there). */
  wrappedHosts: string[];
  trainMs: number;
}

/**
 * Trains the builder on each host's VM rows before the held-out day and forecasts the instance's window
 * (horizon.slots x horizon.slotSeconds) from the start of that day. `doc` is the forecast instance
 * (generated at the forecast day's offset); `tracesDir` holds the VM files named in its provenance.
 */
export function builderForecast(doc: InstanceDoc, tracesDir: string, seed: number): BuiltForecast {
  const { hosts, offsetRows } = traceSource(doc);
  const S = doc.horizon.slotSeconds;
  if (!(TRACE_ROW_SECONDS % S === 0)) throw new Error(`slotSeconds ${S} must divide the traces' ${TRACE_ROW_SECONDS} s rows`);
  const windowRows = Math.ceil((doc.horizon.slots * S) / TRACE_ROW_SECONDS);
  const traces = new Map<string, { cpu: Series; ram: Series }>();
  for (const h of hosts)
    if (!traces.has(h.vmFile)) traces.set(h.vmFile, parseBitbrainsVm(readFileSync(path.join(tracesDir, h.vmFile), 'utf8'), h.vmFile));

  // The common instant every host's held-out row is moved to: any aligned time works; the first host's own keeps shifts small.
  const heldOutRow = offsetRows + DAY_ROWS;
  const first = traces.get(hosts[0].vmFile)!;
  const anchor = Math.floor(first.cpu.t[heldOutRow % first.cpu.t.length] / TRACE_ROW_SECONDS) * TRACE_ROW_SECONDS;
  const history: UsageHistory = {};
  const historyRows: number[] = [];
  const wrappedHosts: string[] = [];
  for (const h of hosts) {
    const vm = traces.get(h.vmFile)!;
    const n = vm.cpu.t.length;
    // gen-instance.py indexes rows modulo the trace length: past the end it replays the trace's start.
    const row = heldOutRow % n;
    if (heldOutRow + windowRows > n) wrappedHosts.push(h.node);
    // The mapping above must be gen-instance.py's: the forecast instance's slot 0 replays row offsetRows.
    const replayed = doc.usage?.[h.node]?.ram?.[0];
    if (replayed === undefined || Math.abs(replayed - vm.ram.v[offsetRows % n]) > 1e-3)
      throw new Error(`${h.node}: instance RAM ${replayed} at slot 0 is not ${h.vmFile} row ${offsetRows} (${vm.ram.v[offsetRows % n]}): gen-instance.py's row mapping changed`);
    const shift = vm.cpu.t[row] - anchor;
    const t = Float64Array.from({ length: row }, (_, i) => vm.cpu.t[i] - shift);
    const head = (v: ArrayLike<number>) => Float64Array.from({ length: row }, (_, i) => v[i]);
    history[h.node] = { cpu: { t, v: head(vm.cpu.v) }, ram: { t, v: head(vm.ram.v) } };
    historyRows.push(row);
  }
  const t0 = Date.now();
  const model = trainForecaster(history, { slotSeconds: TRACE_ROW_SECONDS, quantiles: [FORECAST_QUANTILE], horizonSlots: windowRows, until: anchor, seed });
  const rows = forecast(model, anchor, windowRows)[0].usage;
  const trainMs = Date.now() - t0;
  const perRow = TRACE_ROW_SECONDS / S;
  const usage: InstanceDoc['usage'] = {};
  for (const h of hosts) {
    usage[h.node] = {};
    for (const metric of doc.metrics) {
      const r = rows[h.node]?.[metric];
      if (!r) throw new Error(`the builder returned no ${metric} forecast for ${h.node}`);
      // slot t replays row floor(t / perRow), like gen-instance.py
      usage[h.node][metric] = Array.from({ length: doc.horizon.slots }, (_, s) => round4(r[Math.floor(s / perRow)]));
    }
  }
  return { usage, historyRows, wrappedHosts, trainMs };
}

function round4(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
