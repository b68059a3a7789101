/**
 * The read-only page of one plan that a person opens in a browser: its key facts and its charts. A browser
 * cannot send a Bearer header when it navigates, and a key must never travel in a URL, so the page is a static
 * shell (no plan data in it, hence public) whose script asks for the key once, keeps it in sessionStorage (this
 * tab only, gone when it closes) and fetches the plan and the charts with `Authorization: Bearer`, under exactly
 * the rules of those routes. No framework: plain DOM, every value written as text.
 */

import { createHash } from 'node:crypto';

/**
 * The page and its Content-Security-Policy: only this page's own inline script runs (by its hash), requests go
 * to this origin only, nothing may frame it.
 */
export function planPage(planId: string): { html: string; csp: string } {
  const script = pageScript(planId);
  const hash = createHash('sha256').update(script).digest('base64');
  const csp = `default-src 'none'; script-src 'sha256-${hash}'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
  return { html: pageHtml(planId, script), csp };
}

function pageHtml(planId: string, script: string): string {
  // planId passed UuidParam: hex and dashes only, safe inside a JS string and HTML.
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>Fallow plan ${planId}</title>
<style>
  [hidden] { display: none !important; } /* the form's display: flex would otherwise win over hidden */
  body { font: 14px/1.4 system-ui, sans-serif; margin: 0 auto; max-width: 1280px; padding: 16px 24px; color: #222; background: #fafafa; }
  h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 24px 0 8px; }
  .muted { color: #666; } .error { color: #b71c1c; }
  dl.facts { display: grid; grid-template-columns: max-content 1fr max-content 1fr; gap: 4px 16px; background: white; border: 1px solid #ddd; padding: 12px; }
  dl.facts dt { color: #555; } dl.facts dd { margin: 0; font-weight: 600; }
  figure { margin: 0 0 16px; background: white; border: 1px solid #ddd; padding: 8px; overflow-x: auto; }
  figure svg { max-width: 100%; height: auto; display: block; }
  ul.rejections { margin: 4px 0; padding-left: 20px; max-height: 160px; overflow-y: auto; }
  form { background: white; border: 1px solid #ddd; padding: 12px; display: flex; gap: 8px; align-items: center; }
  input[type=password] { width: 28em; }
</style></head>
<body>
<h1>Plan <span id="plan-id">${planId}</span></h1>
<p class="muted" id="status">Loading...</p>
<form id="key-form" hidden autocomplete="off">
  <label>API key <input type="password" id="key" name="key" required></label>
  <button type="submit">Show the plan</button>
  <span class="muted">kept in this tab only</span>
</form>
<section id="content" hidden>
  <h2>Key facts</h2>
  <dl class="facts" id="facts"></dl>
  <h2>Rejected jobs</h2>
  <div id="rejected"></div>
  <h2>Gantt per node</h2>
  <figure id="chart-gantt" data-chart="gantt"><span class="muted">rendering...</span></figure>
  <h2>Capacity the forecast leaves vs what the plan uses</h2>
  <figure id="chart-utilisation" data-chart="utilisation"><span class="muted">rendering...</span></figure>
  <h2>Latest simulation: planned vs realised</h2>
  <figure id="chart-simulation" data-chart="simulation"><span class="muted">looking for a simulation...</span></figure>
</section>
<script>${script}</script>
</body></html>
`;
}

function pageScript(planId: string): string {
  return `
(function () {
  'use strict';
  var PLAN = '${planId}';
  var STORE = 'fallow-api-key';
  var form = document.getElementById('key-form');
  var status = document.getElementById('status');

  function say(text, isError) { status.textContent = text; status.className = isError ? 'error' : 'muted'; }
  function el(tag, text) { var e = document.createElement(tag); if (text !== undefined) e.textContent = String(text); return e; }
  function ask(message, isError) { sessionStorage.removeItem(STORE); form.hidden = false; say(message, isError); document.getElementById('key').focus(); }
  function get(path, key) { return fetch(path, { headers: { Authorization: 'Bearer ' + key }, cache: 'no-store' }); }
  async function problem(res) { try { var p = await res.json(); return p.detail || p.title || res.statusText; } catch (e) { return res.statusText; } }

  function fact(dl, name, value) { if (value === undefined || value === null || value === '') return; dl.appendChild(el('dt', name)); dl.appendChild(el('dd', value)); }
  function showFacts(plan) {
    var dl = document.getElementById('facts');
    var o = plan.objective || {}, b = plan.bound || {}, k = plan.kpis || {};
    fact(dl, 'strategy', plan.strategy);
    fact(dl, 'instance', plan.instance);
    fact(dl, 'scheduled tasks', o.scheduledTasks);
    fact(dl, 'makespan (slots)', o.makespanSlots);
    fact(dl, 'lower bound (slots)', b.makespanSlots);
    fact(dl, 'gap', typeof plan.gap === 'number' ? (100 * plan.gap).toFixed(2) + ' %' : undefined);
    var what = (plan.stats && plan.stats.objective === 'revenue') ? ' for revenue' : ' for scheduled tasks, then makespan';
    fact(dl, 'optimal', plan.optimal === undefined ? undefined : plan.optimal ? 'yes (proven' + what + ')' : 'not proven');
    fact(dl, 'revenue', o.revenue !== undefined ? o.revenue : k.revenue);
    fact(dl, 'revenue bound', b.revenue);
    fact(dl, 'accepted / rejected jobs', k.acceptedJobs !== undefined ? k.acceptedJobs + ' / ' + k.rejectedJobs : undefined);
    fact(dl, 'PRU', typeof k.pru === 'number' ? (100 * k.pru).toFixed(1) + ' %' : undefined);
    fact(dl, 'JCR', typeof k.jcr === 'number' ? (100 * k.jcr).toFixed(1) + ' %' : undefined);
    fact(dl, 'created', plan.createdAt);
    var box = document.getElementById('rejected');
    var reasons = {};
    (plan.rejections || []).forEach(function (r) { reasons[r.job] = r.reason; });
    if (!plan.rejected || plan.rejected.length === 0) { box.appendChild(el('p', 'none: every job is scheduled')); return; }
    var ul = el('ul'); ul.className = 'rejections';
    plan.rejected.forEach(function (job) { ul.appendChild(el('li', reasons[job] ? job + ': ' + reasons[job] : job)); });
    box.appendChild(ul);
  }

  /** Puts a chart's SVG in its figure, parsed as an SVG document (never as HTML) and imported as nodes. */
  async function chart(figureId, path, key) {
    var fig = document.getElementById(figureId);
    var res = await get(path, key);
    if (!res.ok) { fig.replaceChildren(el('span', 'no chart: ' + (await problem(res)))); fig.firstChild.className = 'error'; return false; }
    var doc = new DOMParser().parseFromString(await res.text(), 'image/svg+xml');
    if (doc.documentElement.nodeName !== 'svg') { fig.replaceChildren(el('span', 'the chart could not be read')); return false; }
    fig.replaceChildren(document.importNode(doc.documentElement, true));
    return true;
  }

  async function simulation(key) {
    var res = await get('/v1/plans/' + PLAN + '/simulations?limit=20', key);
    var fig = document.getElementById('chart-simulation');
    if (!res.ok) { fig.replaceChildren(el('span', await problem(res))); return; }
    var done = (await res.json()).items.filter(function (s) { return s.status === 'succeeded'; });
    if (done.length === 0) { fig.replaceChildren(el('span', 'no simulation of this plan has succeeded yet (POST /v1/plans/' + PLAN + '/simulations)')); fig.firstChild.className = 'muted'; return; }
    await chart('chart-simulation', '/v1/simulations/' + done[0].id + '/charts/planned-vs-realised.svg', key);
  }

  async function load(key) {
    say('Loading the plan...');
    var res = await get('/v1/plans/' + PLAN + '/summary', key); // not the whole plan: a large plan's assignments are megabytes
    if (res.status === 401) return ask('That key is not valid: ' + (await problem(res)), true);
    if (!res.ok) return say('The plan cannot be shown: ' + (await problem(res)), true);
    sessionStorage.setItem(STORE, key);
    form.hidden = true;
    showFacts(await res.json());
    document.getElementById('content').hidden = false;
    say('Rendering the charts...');
    await Promise.all([
      chart('chart-gantt', '/v1/plans/' + PLAN + '/charts/gantt.svg', key),
      chart('chart-utilisation', '/v1/plans/' + PLAN + '/charts/utilisation.svg', key),
      simulation(key),
    ]);
    say('Read-only view of plan ' + PLAN + '. The charts are also at /v1/plans/' + PLAN + '/charts/{gantt,utilisation}.{svg,json}.');
    document.body.setAttribute('data-ready', 'true');
  }

  form.addEventListener('submit', function (e) {
    e.preventDefault();
    var key = document.getElementById('key').value.trim();
    if (key) load(key).catch(function (err) { say('Failed: ' + err.message, true); });
  });
  var stored = sessionStorage.getItem(STORE);
  if (stored) load(stored).catch(function (err) { say('Failed: ' + err.message, true); });
  else ask('This page needs your Fallow API key (a customer key that owns the plan, or an operator key).', false);
})();
`;
}
