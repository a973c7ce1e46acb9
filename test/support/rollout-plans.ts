import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from '../../shared/clock';
import { rolloutBucket } from '../../shared/releases/rollout';
import { electronUpdateClient } from './electron-updater-client';
import { createApplication, createCustomer, uploadSmallFile } from './factories';
import type { TestApp } from './test-app';
import { pollUntil } from './poll';
import { WebhookReceiver } from './webhook-receiver';

export const HOUR_MS = 3_600_000;

/** Real time until a test moves it forward: check events carry real times, plans' steps and the arrival window read this. */
export class MovableClock implements Clock {
  private offsetMs = 0;
  now(): number {
    return Date.now() + this.offsetMs;
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

/** 5% at once, 25% after a day, 100% after two; halted below 90% with at least 3 offered. */
export const PLAN = {
  steps: [{ percentage: 5, after: '0h' }, { percentage: 25, after: '24h' }, { percentage: 100, after: '48h' }],
  halt: { minOffered: 3, minSuccessRate: 0.9, maxFailureReports: 10 },
};

/** The environment of an app whose plans are stepped by its workers: a one-hour arrival window, webhooks to 127.0.0.1. */
export const ROLLOUT_TEST_ENV = { UPDATE_ARRIVAL_WINDOW: '1', RATE_LIMITS: 'off', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_BASE_MS: '20' };

/** A webhook receiver subscribed to the app's rollout steps and halts. */
export async function rolloutWebhookReceiver(app: TestApp): Promise<WebhookReceiver> {
  const receiver = await WebhookReceiver.start();
  await app.api.createWebhook({ url: receiver.url(), events: ['version.rollout_advanced', 'version.rollout_halted'] });
  return receiver;
}

/** `perBand` customer ids in each band of the version's rollout buckets: under 5, 5 to 24, 25 and over. */
export function customersInBands(applicationId: string, version: string, perBand = 3): string[] {
  const chosen: string[] = [];
  for (const [low, high] of [[0, 5], [5, 25], [25, 100]]) {
    let found = 0;
    while (found < perBand) {
      const customerId = `cust-${randomBytes(5).toString('hex')}`;
      const bucket = rolloutBucket(customerId, applicationId, version);
      if (bucket >= low && bucket < high) {
        chosen.push(customerId);
        found += 1;
      }
    }
  }
  return chosen;
}

/** The funnel's offers of the version, once the fold job recorded `offered` of them, `arrived` of which arrived. */
export async function offersFolded(app: TestApp, applicationId: string, version: string, offered: number, arrived: number) {
  return pollUntil(async () => {
    const offers = await app.core.store.funnel.listInstallOffers(applicationId, version, null, 1000);
    return offers.length === offered && offers.filter((o) => o.arrivedAt).length === arrived ? offers : undefined;
  }, 30_000, `${offered} offers, ${arrived} arrived, folded`);
}

export const rolloutPercentageOf = async (app: TestApp, applicationId: string, version: string) =>
  (await app.core.store.versions.getVersion(applicationId, version))?.rolloutPercentage;

export async function rolloutPercentageBecomes(app: TestApp, applicationId: string, version: string, percentage: number): Promise<void> {
  await pollUntil(async () => ((await rolloutPercentageOf(app, applicationId, version)) === percentage ? true : undefined), 40_000, `rollout at ${percentage}%`);
}

export async function rolloutPlanHalts(app: TestApp, applicationId: string, version: string): Promise<void> {
  await pollUntil(async () => ((await app.core.store.rolloutPlans.getRolloutPlan(applicationId, version))?.status === 'halted' ? true : undefined), 40_000, 'halted');
}

/** The `data` of the webhook deliveries of one type about the application. */
export const receivedOf = (receiver: WebhookReceiver, type: string, applicationId: string) => receiver.ofType(type)
  .map((request) => (JSON.parse(request.body) as { data: Record<string, unknown> }).data)
  .filter((data) => data.applicationId === applicationId);

/** One simulated install per customer: electron-updater with its own staging id, telling the service what it runs (X-App-Version). */
export interface ElectronInstall {
  customerId: string;
  apiKey: string;
  stagingUserId: string;
  running: string;
}

/**
 * An application with 1.0.0 and 2.0.0 for Linux, and `perBand` customers in each band of 2.0.0's
 * buckets: under 5, 5 to 24, 25 and over (each with one install running 1.0.0).
 */
export async function electronReleaseWithInstalls(app: TestApp, perBand = 3): Promise<{ applicationId: string; installs: ElectronInstall[] }> {
  const applicationId = `app-${randomBytes(4).toString('hex')}`;
  const chosen = customersInBands(applicationId, '2.0.0', perBand);
  const installs: ElectronInstall[] = [];
  for (const customerId of chosen) {
    const { apiKey } = await createCustomer(app, { customerId });
    installs.push({ customerId, apiKey, stagingUserId: randomUUID(), running: '1.0.0' });
  }
  await createApplication(app, { applicationId, customerIds: chosen });
  for (const version of ['1.0.0', '2.0.0']) {
    await uploadSmallFile(app, { applicationId, version, content: randomBytes(2_000), fileName: `app_${version}_amd64.deb`, platform: 'linux', arch: 'x64' });
  }
  return { applicationId, installs };
}

/**
 * Each install checks once with electron-updater (what it was offered, or what it runs); with
 * `install`, one offered 2.0.0 downloads and installs it and checks in again running it (same staging id).
 */
export async function electronCheckRound(app: TestApp, applicationId: string, installs: ElectronInstall[], install: boolean): Promise<Map<string, string>> {
  const offered = new Map<string, string>();
  const clientOf = (one: ElectronInstall) => electronUpdateClient({
    feedUrl: `${app.baseUrl}/v1/updates/${applicationId}/electron`, version: one.running, platform: 'linux',
    authorization: `Bearer ${one.apiKey}`, headers: { 'X-App-Version': one.running }, stagingUserId: one.stagingUserId,
  });
  for (const one of installs) {
    const client = await clientOf(one);
    try {
      const result = await client.check();
      offered.set(one.customerId, result?.updateInfo.version ?? one.running);
      if (install && result?.isUpdateAvailable && result.updateInfo.version === '2.0.0') {
        // Fetched through the feed's file link with the install's key, as the app downloads it.
        expect(await client.download()).to.have.length(1);
        one.running = '2.0.0';
      }
    } finally {
      await client.close();
    }
    if (one.running === '2.0.0' && install) {
      const restarted = await clientOf(one);
      try {
        await restarted.check();
      } finally {
        await restarted.close();
      }
    }
  }
  return offered;
}
