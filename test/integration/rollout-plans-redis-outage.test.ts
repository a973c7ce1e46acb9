import { expect } from 'chai';
import { createLogger } from '../../shared/logger';
import { launchWorkers, LaunchedWorkers } from '../../workers/worker-process';
import { DedicatedRedis, startDedicatedRedis } from '../support/dedicated-redis';
import { pollUntil } from '../support/poll';
import {
  electronCheckRound, electronReleaseWithInstalls, HOUR_MS, MovableClock, offersFolded, receivedOf, ROLLOUT_TEST_ENV, rolloutWebhookReceiver, rolloutPercentageBecomes, rolloutPercentageOf,
} from '../support/rollout-plans';
import { startTestApp, TestApp } from '../support/test-app';
import type { WebhookReceiver } from '../support/webhook-receiver';

/** Judged on one arrived install, so the steps wait on time only once it has arrived. */
const PLAN = {
  steps: [{ percentage: 5, after: '0h' }, { percentage: 25, after: '24h' }, { percentage: 100, after: '48h' }],
  halt: { minOffered: 1, minSuccessRate: 0.9, maxFailureReports: 10 },
};

/**
 * A plan's steps while Redis goes away and comes back, with two worker processes sweeping and
 * stepping the same plans: each step is taken once (one audit entry, one webhook) and none is lost.
 */
describe('rollout plans through a Redis outage, with two workers', function () {
  this.timeout(180_000);
  let redis: DedicatedRedis;
  let app: TestApp;
  let second: LaunchedWorkers | undefined;
  let receiver: WebhookReceiver;
  const clock = new MovableClock();

  before(async () => {
    redis = await startDedicatedRedis({ persistent: true });
    app = await startTestApp({ clock, env: { ...ROLLOUT_TEST_ENV, REDIS_URL: redis.url } });
    // A second worker process of the same deployment: same store, Redis and key prefix.
    second = await launchWorkers(app.config, createLogger('silent', 'test'), app.core, redis.url);
    receiver = await rolloutWebhookReceiver(app);
  });

  after(async () => {
    await second?.close();
    await app?.close();
    await receiver?.close();
    await redis?.dispose();
  });

  const settle = () => new Promise((resolve) => setTimeout(resolve, 8_000));

  it('takes each step once and loses none when Redis stops and restarts as a step comes due', async () => {
    const { applicationId, installs } = await electronReleaseWithInstalls(app, 1);
    const set = await app.http.patch(`/v1/management/applications/${applicationId}/versions/2.0.0`, { rolloutPlan: PLAN });
    expect(set.status, String(set.raw)).to.equal(200);
    await electronCheckRound(app, applicationId, installs, true);
    await offersFolded(app, applicationId, '2.0.0', 1, 1);
    await settle();
    expect(await rolloutPercentageOf(app, applicationId, '2.0.0'), 'not due yet').to.equal(5);

    // The step comes due and Redis dies at once, nothing flushed: whatever run was under way is cut off.
    clock.advance(25 * HOUR_MS);
    await redis.kill();
    await settle();
    await redis.restart();
    await rolloutPercentageBecomes(app, applicationId, '2.0.0', 25);
    await pollUntil(async () => (receivedOf(receiver, 'version.rollout_advanced', applicationId).length >= 1 ? true : undefined), 40_000, 'the step delivered');
    // Several sweeps of both workers later: still one step, one entry, one delivery.
    await settle();
    expect(receivedOf(receiver, 'version.rollout_advanced', applicationId).map((data) => [data.fromPercentage, data.percentage])).to.deep.equal([[5, 25]]);
    const audit = () => app.core.store.audit.listAuditEntries({ applicationId, actor: 'rollout-plan', limit: 10 });
    expect((await audit()).map((entry) => entry.details?.percentage)).to.deep.equal([25]);

    // Redis stops cleanly while the plan waits for its last step, and the step comes due while it is down.
    await redis.stop();
    clock.advance(24 * HOUR_MS);
    await settle();
    expect(await rolloutPercentageOf(app, applicationId, '2.0.0'), 'the version written by no worker while Redis is away').to.equal(25);
    await redis.restart();
    await rolloutPercentageBecomes(app, applicationId, '2.0.0', 100);
    await pollUntil(async () => (receivedOf(receiver, 'version.rollout_advanced', applicationId).length >= 2 ? true : undefined), 40_000, 'the last step delivered');
    await settle();
    expect(receivedOf(receiver, 'version.rollout_advanced', applicationId).map((data) => [data.fromPercentage, data.percentage])).to.deep.equal([[5, 25], [25, 100]]);
    expect((await audit()).map((entry) => [entry.action, entry.details?.fromPercentage, entry.details?.percentage])).to.deep.equal([
      ['version.rolloutAdvanced', 25, 100], ['version.rolloutAdvanced', 5, 25],
    ]);
    expect((await app.core.store.rolloutPlans.getRolloutPlan(applicationId, '2.0.0'))?.step).to.equal(2);
    expect(receivedOf(receiver, 'version.rollout_halted', applicationId)).to.deep.equal([]);
  });
});
