import { expect } from 'chai';
import { Queue } from 'bullmq';
import { UPDATE_REPORT_RETENTION_MS } from '../../shared/policy';
import { isInRollout } from '../../shared/releases/rollout';
import { createCustomer } from '../support/factories';
import { pollUntil } from '../support/poll';
import {
  electronCheckRound, ElectronInstall, electronReleaseWithInstalls, HOUR_MS, MovableClock, offersFolded, PLAN, receivedOf, ROLLOUT_TEST_ENV, rolloutWebhookReceiver, rolloutPercentageBecomes, rolloutPercentageOf, rolloutPlanHalts,
} from '../support/rollout-plans';
import { startTestApp, TestApp } from '../support/test-app';
import type { WebhookReceiver } from '../support/webhook-receiver';

describe('rollout plans driven by the update funnel', function () {
  this.timeout(180_000);
  let app: TestApp;
  let receiver: WebhookReceiver;
  const clock = new MovableClock();

  before(async () => {
    app = await startTestApp({ clock, env: ROLLOUT_TEST_ENV });
    receiver = await rolloutWebhookReceiver(app);
  });

  after(async () => {
    await receiver?.close();
    await app?.close();
  });

  const releaseWithInstalls = () => electronReleaseWithInstalls(app);
  const checkRound = (applicationId: string, installs: ElectronInstall[], install: boolean) => electronCheckRound(app, applicationId, installs, install);

  const offersOf = (applicationId: string) => app.core.store.funnel.listInstallOffers(applicationId, '2.0.0', null, 1000);
  const folded = (applicationId: string, offered: number, arrived: number) => offersFolded(app, applicationId, '2.0.0', offered, arrived);
  const percentageOf = (applicationId: string) => rolloutPercentageOf(app, applicationId, '2.0.0');
  const percentageBecomes = (applicationId: string, percentage: number) => rolloutPercentageBecomes(app, applicationId, '2.0.0', percentage);
  const received = (type: string, applicationId: string) => receivedOf(receiver, type, applicationId);

  it('walks a healthy release 5 → 25 → 100 as its installs arrive, announcing each step', async () => {
    const { applicationId, installs } = await releaseWithInstalls();
    const set = await app.http.patch(`/v1/management/applications/${applicationId}/versions/2.0.0`, { rolloutPlan: PLAN });
    expect(set.status, String(set.raw)).to.equal(200);
    expect(set.body.data.rolloutPercentage).to.equal(5);

    const first = await checkRound(applicationId, installs, true);
    const inside = (percentage: number) => installs.filter((one) => isInRollout(one.customerId, applicationId, '2.0.0', percentage)).map((one) => one.customerId);
    expect([...first].filter(([, version]) => version === '2.0.0').map(([customerId]) => customerId)).to.have.members(inside(5));
    await folded(applicationId, 3, 3);
    // Not due yet: the plan waits for its time even when healthy.
    clock.advance(2 * HOUR_MS);
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(await percentageOf(applicationId)).to.equal(5);

    clock.advance(23 * HOUR_MS);
    await percentageBecomes(applicationId, 25);
    const second = await checkRound(applicationId, installs, true);
    expect([...second].filter(([, version]) => version === '2.0.0').map(([customerId]) => customerId)).to.have.members(inside(25));
    await folded(applicationId, 6, 6);
    clock.advance(24 * HOUR_MS);
    await percentageBecomes(applicationId, 100);
    const third = await checkRound(applicationId, installs, true);
    expect([...third.values()]).to.deep.equal(installs.map(() => '2.0.0'));

    await pollUntil(async () => (received('version.rollout_advanced', applicationId).length === 2 ? true : undefined), 20_000, 'both steps delivered');
    const steps = received('version.rollout_advanced', applicationId);
    expect(steps.map((data) => [data.fromPercentage, data.percentage])).to.deep.equal([[5, 25], [25, 100]]);
    expect(steps[0].figures).to.deep.include({ offered: 3, matured: 3, arrived: 3, stuck: 0, successRate: 1 });
    expect(received('version.rollout_halted', applicationId)).to.deep.equal([]);
    // Each install downloaded it with its customer's key before it arrived: every offer is linked to a download.
    await folded(applicationId, 9, 9);
    const health = await app.http.get(`/v1/applications/${applicationId}/versions/2.0.0/health`);
    expect(health.body.data.figures).to.deep.include({ offered: 9, downloaded: 9, arrived: 9 });
    const audit = await app.core.store.audit.listAuditEntries({ applicationId, actor: 'rollout-plan', limit: 10 });
    expect(audit.map((entry) => [entry.action, entry.target, entry.outcome])).to.deep.equal([
      ['version.rolloutAdvanced', `${applicationId}/2.0.0`, 'succeeded'], ['version.rolloutAdvanced', `${applicationId}/2.0.0`, 'succeeded'],
    ]);
    // Each entry keeps the figures and the bar its step was taken on, newest first.
    const thresholds = PLAN.halt;
    expect(audit.map((entry) => entry.details)).to.deep.equal([
      { percentage: 100, fromPercentage: 25, reason: null, figures: steps[1].figures, thresholds },
      { percentage: 25, fromPercentage: 5, reason: null, figures: steps[0].figures, thresholds },
    ]);
    const listed = await app.http.get(`/v1/management/audit?applicationId=${applicationId}&action=version.rolloutAdvanced`);
    expect(listed.status).to.equal(200);
    expect(listed.body.data.entries.map((entry: { details?: unknown }) => entry.details)).to.deep.equal(audit.map((entry) => entry.details));
  });

  it('halts at 5% a release whose installs never arrive, and offers it to no customer outside the 5%', async () => {
    const { applicationId, installs } = await releaseWithInstalls();
    const set = await app.http.patch(`/v1/management/applications/${applicationId}/versions/2.0.0`, { rolloutPlan: PLAN });
    expect(set.status, String(set.raw)).to.equal(200);
    // Offered, downloaded or not, never running it: every install checks in still on 1.0.0.
    await checkRound(applicationId, installs, false);
    await folded(applicationId, 3, 0);
    clock.advance(2 * HOUR_MS);
    await rolloutPlanHalts(app, applicationId, '2.0.0');
    const plan = await app.core.store.rolloutPlans.getRolloutPlan(applicationId, '2.0.0');
    expect(plan?.haltReason).to.equal('success rate 0% of 3 installs (at least 90%)');

    await pollUntil(async () => (received('version.rollout_halted', applicationId).length === 1 ? true : undefined), 20_000, 'the halt delivered');
    const [halted] = received('version.rollout_halted', applicationId);
    expect(halted).to.deep.include({ version: '2.0.0', percentage: 5, reason: 'success rate 0% of 3 installs (at least 90%)' });
    expect(halted.figures).to.deep.include({ offered: 3, matured: 3, arrived: 0, stuck: 3, successRate: 0 });

    // Its steps' times come and go: it stays at 5%, and only the customers inside the 5% were ever offered it.
    clock.advance(48 * HOUR_MS);
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(await percentageOf(applicationId)).to.equal(5);
    const later = await checkRound(applicationId, installs, false);
    for (const one of installs) {
      const inside = isInRollout(one.customerId, applicationId, '2.0.0', 5);
      expect(later.get(one.customerId), one.customerId).to.equal(inside ? '2.0.0' : '1.0.0');
    }
    const offeredTo = new Set((await offersOf(applicationId)).map((offer) => offer.customerId));
    expect([...offeredTo]).to.have.members(installs.filter((one) => isInRollout(one.customerId, applicationId, '2.0.0', 5)).map((one) => one.customerId));
    expect(received('version.rollout_advanced', applicationId)).to.deep.equal([]);
    const audit = await app.core.store.audit.listAuditEntries({ applicationId, actor: 'rollout-plan', limit: 10 });
    expect(audit.map((entry) => entry.action)).to.deep.equal(['version.rolloutHalted']);
    expect(audit[0].details).to.deep.equal({ percentage: 5, fromPercentage: 5, reason: 'success rate 0% of 3 installs (at least 90%)', figures: halted.figures, thresholds: PLAN.halt });

    // The health as the console and `bds versions rollout health` read it.
    const health = await app.http.get(`/v1/applications/${applicationId}/versions/2.0.0/health`);
    expect(health.status).to.equal(200);
    expect(health.body.data.figures).to.deep.include({ offered: 3, downloaded: 0, arrived: 0, stuck: 3, successRate: 0, failureReports: 0 });
    expect(health.body.data.days.map((day: { offered: number }) => day.offered).reduce((a: number, b: number) => a + b, 0)).to.equal(3);
    expect(health.body.data.rolloutPlan).to.deep.include({ status: 'halted', step: 0, haltReason: 'success rate 0% of 3 installs (at least 90%)' });
    // An admin stops it for good: it stays at 5%, and is neither resumed nor stopped again.
    const rollout = `/v1/management/applications/${applicationId}/versions/2.0.0/rollout`;
    const stopped = await app.http.post(`${rollout}/stop`);
    expect(stopped.status).to.equal(200);
    expect(stopped.body.data).to.deep.include({ status: 'stopped', step: 0 });
    expect((await app.http.post(`${rollout}/stop`)).status).to.equal(409);
    expect((await app.http.post(`${rollout}/resume`)).status).to.equal(409);
    expect(await percentageOf(applicationId)).to.equal(5);
  });

  it('halts at 5% a release that draws failure reports, counting them and their messages in its health', async () => {
    const { applicationId, installs } = await releaseWithInstalls();
    const plan = { ...PLAN, halt: { ...PLAN.halt, maxFailureReports: 2 } };
    expect((await app.http.patch(`/v1/management/applications/${applicationId}/versions/2.0.0`, { rolloutPlan: plan })).status).to.equal(200);
    const offered = await checkRound(applicationId, installs, false);
    const inside = installs.filter((one) => offered.get(one.customerId) === '2.0.0');
    expect(inside.map((one) => one.customerId)).to.have.members(installs.filter((one) => isInRollout(one.customerId, applicationId, '2.0.0', 5)).map((one) => one.customerId));
    // What electron-updater's `autoUpdater.on('error')` handler of each of them sends.
    for (const one of inside) {
      const sent = await fetch(`${app.baseUrl}/v1/updates/${applicationId}/reports`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${one.apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ installId: one.stagingUserId, fromVersion: '1.0.0', toVersion: '2.0.0', event: 'install_failed', message: 'EACCES: permission denied' }),
      });
      expect(sent.status).to.equal(202);
    }
    // A customer the application does not list is refused, and nothing is counted.
    const stranger = await createCustomer(app);
    const refused = await fetch(`${app.baseUrl}/v1/updates/${applicationId}/reports`, {
      method: 'POST', headers: { Authorization: `Bearer ${stranger.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ fromVersion: '1.0.0', toVersion: '2.0.0', event: 'install_failed' }),
    });
    expect(refused.status).to.equal(404);
    await rolloutPlanHalts(app, applicationId, '2.0.0');
    expect((await app.core.store.rolloutPlans.getRolloutPlan(applicationId, '2.0.0'))?.haltReason).to.equal('3 failure reports (at most 2)');
    await pollUntil(async () => (received('version.rollout_halted', applicationId).length === 1 ? true : undefined), 20_000, 'the halt delivered');
    expect(await percentageOf(applicationId)).to.equal(5);
    const health = await app.http.get(`/v1/applications/${applicationId}/versions/2.0.0/health`);
    expect(health.body.data.figures.failureReports).to.equal(3);
    expect(health.body.data.topFailureMessages).to.deep.equal([{ message: 'EACCES: permission denied', reports: 3 }]);
  });

  it('resumes a halted plan only, and reads no plan for a version without one', async () => {
    const { applicationId } = await releaseWithInstalls();
    const rollout = `/v1/management/applications/${applicationId}/versions/2.0.0/rollout`;
    expect((await app.http.post(`${rollout}/resume`)).status).to.equal(404);
    expect((await app.http.get(`/v1/applications/${applicationId}/versions/2.0.0/health`)).body.data).to.deep.include({
      rolloutPlan: null, days: [], topFailureMessages: [], figures: { offered: 0, downloaded: 0, arrived: 0, matured: 0, stuck: 0, successRate: null, failureReports: 0 },
    });
    expect((await app.http.patch(`/v1/management/applications/${applicationId}/versions/2.0.0`, { rolloutPlan: PLAN })).status).to.equal(200);
    expect((await app.http.post(`${rollout}/resume`)).status, 'running, not halted').to.equal(409);
    await app.core.store.rolloutPlans.haltRolloutPlan(applicationId, '2.0.0', 0, 'by hand', new Date(clock.now()));
    const resumed = await app.http.post(`${rollout}/resume`);
    expect(resumed.status).to.equal(200);
    expect(resumed.body.data).to.deep.include({ status: 'running', rolloutHaltedAt: null, haltReason: null });
    // A percentage set by hand takes over: the plan stops.
    expect((await app.http.patch(`/v1/management/applications/${applicationId}/versions/2.0.0`, { rolloutPercentage: 50 })).status).to.equal(200);
    expect((await app.core.store.rolloutPlans.getRolloutPlan(applicationId, '2.0.0'))?.status).to.equal('stopped');
    const both = await app.http.patch(`/v1/management/applications/${applicationId}/versions/2.0.0`, { rolloutPlan: PLAN, rolloutPercentage: 10 });
    expect(both.status).to.equal(400);
  });

  it('purges the reports past their retention when the worker job runs, and keeps the others counted', async () => {
    const { applicationId, installs } = await releaseWithInstalls();
    const report = async () => {
      const sent = await fetch(`${app.baseUrl}/v1/updates/${applicationId}/reports`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${installs[0].apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ fromVersion: '1.0.0', toVersion: '2.0.0', event: 'download_failed', message: 'ECONNRESET' }),
      });
      expect(sent.status).to.equal(202);
    };
    await report();
    clock.advance(UPDATE_REPORT_RETENTION_MS - 24 * HOUR_MS);
    await report();
    const failureReports = () => app.core.store.funnel.countFailureReports(applicationId, '2.0.0');
    expect(await failureReports()).to.equal(2);
    // Two days on, the first is past the retention: the hourly job (queued now rather than waited for) purges it.
    clock.advance(2 * 24 * HOUR_MS);
    const queue = new Queue('statistics', { connection: { url: app.config.redisUrl as string }, prefix: app.config.redisPrefix });
    try {
      await queue.add('purge-update-reports', {});
      await pollUntil(async () => ((await failureReports()) === 1 ? true : undefined), 30_000, 'the old report purged');
    } finally {
      await queue.close();
    }
    const health = await app.http.get(`/v1/applications/${applicationId}/versions/2.0.0/health`);
    expect(health.body.data.figures.failureReports).to.equal(1);
  });
});
