import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CHECK_ROLLUP_INTERVAL_MS } from '../../shared/policy';
import { isInRollout } from '../../shared/releases/rollout';
import { createApplication, createCustomer, uploadSmallFile } from '../support/factories';
import { pollUntil } from '../support/poll';
import {
  customersInBands, HOUR_MS, MovableClock, offersFolded, PLAN, receivedOf, ROLLOUT_TEST_ENV, rolloutWebhookReceiver, rolloutPercentageBecomes, rolloutPercentageOf, rolloutPlanHalts,
} from '../support/rollout-plans';
import { generateTauriKey, tauriSign, TauriSigningKey } from '../support/tauri-signer';
import { TauriUpdateClient } from '../support/tauri-update-client';
import { startTestApp, TestApp } from '../support/test-app';
import type { WebhookReceiver } from '../support/webhook-receiver';

/** One simulated Tauri install per customer: the updater sends no install id, so the service tells it by its customer, address and User-Agent. */
interface Install {
  customerId: string;
  apiKey: string;
  running: string;
}

/** Tauri's updater (the check, the download verified by minisign) on installs walking a release's rollout plan. */
describe('rollout plans driven by Tauri installs', function () {
  this.timeout(180_000);
  let app: TestApp;
  let receiver: WebhookReceiver;
  let directory: string;
  let key: TauriSigningKey;
  const clock = new MovableClock();
  const builds = new Map<string, Buffer>();

  before(async () => {
    directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'bds-rollout-tauri-'));
    key = await generateTauriKey(directory);
    app = await startTestApp({ clock, env: ROLLOUT_TEST_ENV });
    receiver = await rolloutWebhookReceiver(app);
  });

  after(async () => {
    await receiver?.close();
    await app?.close();
    if (directory) await fsp.rm(directory, { recursive: true, force: true });
  });

  /** A Tauri application with signed 1.0.0 and 2.0.0 AppImages, and three customers in each band of 2.0.0's buckets, each with one install on 1.0.0. */
  async function releaseWithInstalls(): Promise<{ applicationId: string; installs: Install[] }> {
    const applicationId = `app-${randomBytes(4).toString('hex')}`;
    const chosen = customersInBands(applicationId, '2.0.0');
    const installs: Install[] = [];
    for (const customerId of chosen) {
      const { apiKey } = await createCustomer(app, { customerId });
      installs.push({ customerId, apiKey, running: '1.0.0' });
    }
    await createApplication(app, { applicationId, customerIds: chosen, updateSigningKey: key.publicKey });
    for (const version of ['1.0.0', '2.0.0']) {
      const bytes = randomBytes(3_000);
      const file = path.join(directory, `${applicationId}-${version}.AppImage.tar.gz`);
      await fsp.writeFile(file, bytes);
      const signature = await tauriSign(key, file);
      builds.set(`${applicationId}/${version}`, bytes);
      await uploadSmallFile(app, { applicationId, version, content: bytes, fileName: 'app.AppImage.tar.gz', platform: 'linux', arch: 'x64' });
      await uploadSmallFile(app, { applicationId, version, content: Buffer.from(signature), fileName: 'app.AppImage.tar.gz.sig', platform: 'linux', arch: 'x64', fileType: 'SIGNATURE' });
    }
    return { applicationId, installs };
  }

  const clientOf = (applicationId: string, one: Install) => new TauriUpdateClient({
    endpoint: `${app.baseUrl}/v1/updates/${applicationId}/tauri/{{target}}/{{arch}}/{{current_version}}`,
    target: 'linux', arch: 'x86_64', currentVersion: one.running, headers: { Authorization: `Bearer ${one.apiKey}` }, pubkey: key.publicKey,
  });

  /**
   * Each install checks once (what it was offered, or what it runs when offered nothing); with
   * `install`, one offered 2.0.0 downloads it, verifies it and checks in again running it.
   */
  async function checkRound(applicationId: string, installs: Install[], install: boolean): Promise<Map<string, string>> {
    const offered = new Map<string, string>();
    for (const one of installs) {
      const update = await clientOf(applicationId, one).check();
      offered.set(one.customerId, update?.version ?? one.running);
      if (install && update?.version === '2.0.0') {
        expect(await clientOf(applicationId, one).download(update)).to.deep.equal(builds.get(`${applicationId}/2.0.0`));
        one.running = '2.0.0';
        expect(await clientOf(applicationId, one).check(), 'up to date once installed').to.equal(null);
      }
    }
    return offered;
  }

  const inside = (applicationId: string, installs: Install[], percentage: number) =>
    installs.filter((one) => isInRollout(one.customerId, applicationId, '2.0.0', percentage)).map((one) => one.customerId);
  const offeredNew = (round: Map<string, string>) => [...round].filter(([, version]) => version === '2.0.0').map(([customerId]) => customerId);

  it('walks a healthy release 5 → 25 → 100 as its Tauri installs arrive', async () => {
    const { applicationId, installs } = await releaseWithInstalls();
    const set = await app.http.patch(`/v1/management/applications/${applicationId}/versions/2.0.0`, { rolloutPlan: PLAN });
    expect(set.status, String(set.raw)).to.equal(200);
    expect(set.body.data.rolloutPercentage).to.equal(5);

    expect(offeredNew(await checkRound(applicationId, installs, true))).to.have.members(inside(applicationId, installs, 5));
    await offersFolded(app, applicationId, '2.0.0', 3, 3);
    clock.advance(25 * HOUR_MS);
    await rolloutPercentageBecomes(app, applicationId, '2.0.0', 25);
    // The installs that arrived are offered nothing newer; those now inside 25% are offered 2.0.0.
    const second = await checkRound(applicationId, installs, true);
    expect(offeredNew(second), 'running it or offered it').to.have.members(inside(applicationId, installs, 25));
    await offersFolded(app, applicationId, '2.0.0', 6, 6);
    clock.advance(24 * HOUR_MS);
    await rolloutPercentageBecomes(app, applicationId, '2.0.0', 100);
    await checkRound(applicationId, installs, true);
    expect(installs.map((one) => one.running)).to.deep.equal(installs.map(() => '2.0.0'));

    await pollUntil(async () => (receivedOf(receiver, 'version.rollout_advanced', applicationId).length === 2 ? true : undefined), 20_000, 'both steps delivered');
    const steps = receivedOf(receiver, 'version.rollout_advanced', applicationId);
    expect(steps.map((data) => [data.fromPercentage, data.percentage])).to.deep.equal([[5, 25], [25, 100]]);
    expect(steps[0].figures).to.deep.include({ offered: 3, matured: 3, arrived: 3, stuck: 0, successRate: 1 });
    expect(steps[1].figures).to.deep.include({ offered: 6, matured: 6, arrived: 6, stuck: 0, successRate: 1 });
    expect(receivedOf(receiver, 'version.rollout_halted', applicationId)).to.deep.equal([]);
    await offersFolded(app, applicationId, '2.0.0', 9, 9);
    const health = await app.http.get(`/v1/applications/${applicationId}/versions/2.0.0/health`);
    expect(health.body.data.figures).to.deep.include({ offered: 9, downloaded: 9, arrived: 9 });
    const audit = await app.core.store.audit.listAuditEntries({ applicationId, actor: 'rollout-plan', limit: 10 });
    expect(audit.map((entry) => entry.action)).to.deep.equal(['version.rolloutAdvanced', 'version.rolloutAdvanced']);
  });

  it('halts at 5% a release whose Tauri installs never arrive, and offers it to no customer outside the 5%', async () => {
    const { applicationId, installs } = await releaseWithInstalls();
    const set = await app.http.patch(`/v1/management/applications/${applicationId}/versions/2.0.0`, { rolloutPlan: PLAN });
    expect(set.status, String(set.raw)).to.equal(200);
    // Offered, never installed: every install keeps checking in on 1.0.0.
    expect(offeredNew(await checkRound(applicationId, installs, false))).to.have.members(inside(applicationId, installs, 5));
    await offersFolded(app, applicationId, '2.0.0', 3, 0);
    clock.advance(2 * HOUR_MS);
    await rolloutPlanHalts(app, applicationId, '2.0.0');
    const reason = 'success rate 0% of 3 installs (at least 90%)';
    expect((await app.core.store.rolloutPlans.getRolloutPlan(applicationId, '2.0.0'))?.haltReason).to.equal(reason);
    await pollUntil(async () => (receivedOf(receiver, 'version.rollout_halted', applicationId).length === 1 ? true : undefined), 20_000, 'the halt delivered');
    const [halted] = receivedOf(receiver, 'version.rollout_halted', applicationId);
    expect(halted).to.deep.include({ version: '2.0.0', percentage: 5, reason });
    expect(halted.figures).to.deep.include({ offered: 3, matured: 3, arrived: 0, stuck: 3, successRate: 0 });

    // Past every step's time, on a new day: still 5%, and still only the customers inside it are offered 2.0.0.
    clock.advance(48 * HOUR_MS);
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(await rolloutPercentageOf(app, applicationId, '2.0.0')).to.equal(5);
    const later = await checkRound(applicationId, installs, false);
    for (const one of installs) {
      expect(later.get(one.customerId), one.customerId).to.equal(isInRollout(one.customerId, applicationId, '2.0.0', 5) ? '2.0.0' : '1.0.0');
    }
    // Two passes of the fold job later, every offer of these checks is recorded: who was ever offered it.
    await new Promise((resolve) => setTimeout(resolve, 2 * CHECK_ROLLUP_INTERVAL_MS + 1_000));
    const offers = await app.core.store.funnel.listInstallOffers(applicationId, '2.0.0', null, 1000);
    expect([...new Set(offers.map((offer) => offer.customerId))]).to.have.members(inside(applicationId, installs, 5));
    expect(receivedOf(receiver, 'version.rollout_advanced', applicationId)).to.deep.equal([]);
    const audit = await app.core.store.audit.listAuditEntries({ applicationId, actor: 'rollout-plan', limit: 10 });
    expect(audit.map((entry) => entry.action)).to.deep.equal(['version.rolloutHalted']);
  });
});
