import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { checkAndPhotograph, launchBrowser, openPage, WatchedPage } from '../support/browser';
import { signInToConsole } from '../support/console-session';
import { createApplication, uploadSmallFile } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

const DAY_MS = 86_400_000;

/**
 * A release's update health on its version page: the funnel per day of offer as a chart, the most
 * reported failures, and a halted rollout plan resumed from its button; checked by axe at a laptop's
 * and a phone's width and photographed (test-output/screenshots/console-version-health*.png).
 */
describe('console: a release\'s update health and rollout plan (real Chromium)', function () {
  this.timeout(120_000);
  let app: TestApp;
  let browser: Browser;
  let watched: WatchedPage;

  before(async () => {
    app = await startTestApp({ workers: false });
    browser = await launchBrowser();
    watched = await openPage(browser, app.baseUrl);
  });
  after(async () => {
    await watched?.close();
    await browser?.close();
    await app?.close();
  });

  it('charts offered, arrived and stuck installs per day, lists the failures, and resumes a halted plan', async () => {
    const { applicationId } = await createApplication(app, { name: 'Desk App' });
    for (const version of ['1.0.0', '2.0.0']) {
      await uploadSmallFile(app, { applicationId, version, content: randomBytes(2_000), fileName: `desk_${version}_amd64.deb`, platform: 'linux', arch: 'x64' });
    }
    const plan = {
      steps: [{ percentage: 5, after: '0h' }, { percentage: 25, after: '24h' }, { percentage: 100, after: '72h' }],
      halt: { minOffered: 10, minSuccessRate: 0.9, maxFailureReports: 5 },
    };
    expect((await app.http.patch(`/v1/management/applications/${applicationId}/versions/2.0.0`, { rolloutPlan: plan })).status).to.equal(200);
    // Installs offered over four days, most arriving; what the funnel's worker records from checks.
    const now = Date.now();
    const offers = [];
    const arrivals = [];
    for (let day = 0; day < 4; day += 1) {
      for (let i = 0; i < 6 + day * 3; i += 1) {
        const installKey = `id:install-${day}-${i}`;
        const offeredAt = new Date(now - (4 - day) * DAY_MS);
        offers.push({ applicationId, version: '2.0.0', installKey, customerId: 'cust_1', platform: 'linux', arch: 'x64', channel: 'stable', offeredAt });
        if (i % 4 !== 3) arrivals.push({ applicationId, version: '2.0.0', installKey, at: new Date(offeredAt.getTime() + 3_600_000) });
      }
    }
    await app.core.store.funnel.recordOffers(offers);
    await app.core.store.funnel.recordArrivals(arrivals);
    for (const [i, message] of ['EACCES: permission denied', 'EACCES: permission denied', 'disk full'].entries()) {
      await app.core.store.funnel.insertUpdateReport({
        reportId: `rep_${i}`, applicationId, customerId: 'cust_1', installId: null, fromVersion: '1.0.0', toVersion: '2.0.0', event: 'install_failed', message, receivedAt: new Date(),
      });
    }
    await app.core.store.rolloutPlans.haltRolloutPlan(applicationId, '2.0.0', 0, 'success rate 75% of 27 installs (at least 90%)', new Date());

    const { page } = watched;
    await signInToConsole(page, app.adminKey);
    await page.goto(`/console/applications/${applicationId}/versions/2.0.0`);
    const section = page.locator('[data-section="version-health"]');
    await section.locator('[data-chart="update-funnel"] canvas').waitFor();
    const text = await section.innerText();
    expect(text).to.include('Offered to 42 installs, 33 arrived, 3 stuck').and.include('success 80%').and.include('3 failure report(s)');
    expect(text).to.include('EACCES: permission denied').and.include('Halted').and.include('success rate 75% of 27 installs (at least 90%)');
    await checkAndPhotograph(page, 'console-version-health');

    await section.getByRole('button', { name: 'Resume rollout' }).click();
    await section.getByRole('button', { name: 'Resume rollout' }).waitFor({ state: 'detached' });
    expect(await section.innerText()).to.include('running');
    expect((await app.core.store.rolloutPlans.getRolloutPlan(applicationId, '2.0.0'))?.status).to.equal('running');
    watched.assertProblemFree();
  });
});
