import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { assertAccessible, launchBrowser, openPage, SCREENSHOT_DIR, VIEWPORTS, WatchedPage } from '../support/browser';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * GET /docs/api: the API reference as a page, in Debian's Chromium. Screenshots (the top of the page
 * and an operation reached from the contents): test-output/screenshots/api-reference-*.png.
 */
describe('the API reference page (real Chromium)', function () {
  this.timeout(240_000);
  let app: TestApp;
  let browser: Browser;
  let watched: WatchedPage;

  before(async () => {
    app = await startTestApp({ workers: false });
    browser = await launchBrowser();
  });
  afterEach(async () => {
    await watched?.close();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  it('is served without a key under a strict policy: no script, nothing from another origin', async () => {
    const response = await fetch(`${app.baseUrl}/docs/api`);
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).to.match(/^default-src 'none'; /);
    expect(policy).not.to.match(/unsafe-inline|unsafe-eval|https?:|\*/);
    const html = await response.text();
    expect(html).not.to.match(/<script|\son\w+=|src="(?!\/)/i);
    // Every link stays on the page or the service.
    expect([...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]).filter((href) => !/^(#|\/)/.test(href))).to.deep.equal([]);
    expect(html).to.include('<h3 id="post-v1managementapplications">POST /v1/management/applications</h3>');
  });

  it('reads at a laptop and a phone, passes axe-core, and its contents lead to each group by keyboard', async () => {
    watched = await openPage(browser, app.baseUrl);
    const { page } = watched;
    await page.goto('/docs/api');
    await page.getByRole('heading', { level: 1, name: 'Binary Distribution Service: API reference' }).waitFor();
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    for (const viewport of [...VIEWPORTS].reverse()) {
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await assertAccessible(page, `the API reference at ${viewport.width}×${viewport.height}`);
      // Nothing wider than the screen: tables and code wrap.
      expect(await page.evaluate('document.documentElement.scrollWidth'), `${viewport.name}: no sideways scrolling`).to.be.at.most(viewport.width);
      await page.evaluate('window.scrollTo(0, 0)');
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `api-reference-${viewport.width}x${viewport.height}.png`) });
    }

    // Tab from the top of the page to the contents' link of a group, and follow it with Enter.
    const target = '/v1/management/customers';
    await page.evaluate('window.scrollTo(0, 0)');
    let focused = '';
    for (let presses = 0; presses < 60 && focused !== target; presses++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate('document.activeElement ? document.activeElement.textContent : ""') as string;
    }
    expect(focused, 'the contents link is reached with Tab').to.equal(target);
    await page.keyboard.press('Enter');
    await page.waitForURL(/#v1managementcustomers$/);
    const heading = page.getByRole('heading', { level: 2, name: target });
    expect(await heading.evaluate((element: { getBoundingClientRect(): { top: number } }) => element.getBoundingClientRect().top)).to.be.within(-1, 200);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'api-reference-customers-1280x800.png') });
    watched.assertProblemFree();
  });
});
