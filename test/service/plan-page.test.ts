/**
 * The plan page in a real headless browser (chromium via playwright-core) against the real service: it asks for
 * the key, shows the plan's facts and its three charts as SVG with marks, remembers the key for the tab only
 * (never in the URL), refuses a bad key and another tenant's key, and a screenshot of it is not blank.
 * Skipped, saying what to install, where there is no chromium (`npm test` installs it when it may).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { chromiumMissing, launchChromium, openPlanPage, pngStats } from '../../harness/browser';
import { Service, startService } from '../../harness/service';
import { SCHEDULED_TASKS, simulatedPlan, solvedPlan } from '../support/chart-fixtures';

describe('the plan page in a browser', { skip: chromiumMissing() }, () => {
  let svc: Service;
  let browser: Browser;
  let page: Page;
  let a: { id: string; keys: Record<string, string> };
  let planId: string;

  before(async () => {
    svc = await startService();
    svc.startWorker();
    a = await svc.tenant('page-a', ['farmer', 'customer']);
    ({ planId } = await solvedPlan(svc, a.keys));
    await simulatedPlan(svc, a.keys.customer, planId);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
  });

  /** Marks (Vega's role-mark groups' children) of the chart in one figure of the page. */
  const marks = (figure: string) => page.locator(`#${figure} svg g.role-mark > *`).count();

  it('loads, asks for the key, and shows the facts and the three charts', async () => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await openPlanPage(page, svc.baseUrl, planId, a.keys.customer);
    assert.equal(new URL(page.url()).search, '', 'the key never goes into the URL');
    assert.equal(await page.locator('#key-form').isHidden(), true);
    const facts = await page.locator('#facts').innerText();
    assert.match(facts, new RegExp(`scheduled tasks\\s+${SCHEDULED_TASKS}`));
    assert.match(facts, /makespan \(slots\)\s+\d+/);
    assert.match(facts, /optimal\s+(yes \(proven for scheduled tasks, then makespan\)|not proven)/);
    assert.match(await page.locator('#rejected').innerText(), /too-big: .+/);
    assert.ok((await marks('chart-gantt')) >= SCHEDULED_TASKS, 'one bar per task at least');
    assert.ok((await marks('chart-utilisation')) > 0);
    assert.ok((await marks('chart-simulation')) > 0);
    for (const job of ['wordcount', 'sort', 'join']) assert.ok((await page.locator('#chart-gantt svg text', { hasText: job }).count()) > 0, `the Gantt names ${job}`);
    assert.deepEqual(errors, [], 'no script errors (the CSP lets the page\'s own script run)');
  });

  it('a screenshot of the page is not blank', async () => {
    const stats = pngStats(await page.screenshot({ fullPage: true }));
    assert.ok(stats.height > 900, `the page is taller than one screen (${stats.height} px)`);
    assert.ok(stats.colours >= 30, `${stats.colours} distinct colours`);
    assert.ok(stats.inked > 0.03, `${(100 * stats.inked).toFixed(1)}% of the pixels are inked`);
  });

  it('keeps the key for the tab: a reload shows the charts without asking again', async () => {
    await page.reload();
    await page.waitForSelector('body[data-ready=true]', { timeout: 30_000 });
    assert.equal(await page.locator('#key-form').isHidden(), true);
    assert.ok((await marks('chart-gantt')) >= SCHEDULED_TASKS);
  });

  it('refuses a bad key and another tenant\'s key, showing no chart', async () => {
    const other = await svc.tenant('page-b', ['customer']);
    const fresh = await browser.newPage();
    try {
      await fresh.goto(`${svc.baseUrl}/v1/plans/${planId}/page`);
      await fresh.fill('#key', 'not-a-key');
      await fresh.click('#key-form button[type=submit]');
      await fresh.waitForSelector('#status.error');
      assert.match(await fresh.locator('#status').innerText(), /not valid/);
      assert.equal(await fresh.locator('#key-form').isVisible(), true, 'it asks again');
      await fresh.fill('#key', other.keys.customer);
      await fresh.click('#key-form button[type=submit]');
      await fresh.locator('#status', { hasText: 'cannot be shown' }).waitFor();
      assert.match(await fresh.locator('#status').innerText(), /does not exist/);
      assert.equal(await fresh.locator('svg').count(), 0);
    } finally {
      await fresh.close();
    }
  });
});
