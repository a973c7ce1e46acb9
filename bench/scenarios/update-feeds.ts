import { randomBytes } from 'node:crypto';
import { startBareKoa } from '../bare-servers';
import type { Figure } from '../figures';
import { compareLoad, HOT_ROUTE_TARGETS, LoadTarget, rateAndP99Figures } from '../load';
import type { Seeded } from '../seed';
import type { Service } from '../service';

/** A version newer than any seeded: the Tauri check answers 204, what nearly every launch of an app gets. */
const RUNNING_VERSION = '9.0.0';

/**
 * The update checks installed apps send at every launch, each next to the bare Koa route measured in
 * the same run at 50 connections: Tauri's dynamic-server check and Squirrel.Mac's, answered 204 (key,
 * access, the newest release the client can take, a version comparison), and electron-updater's
 * channel files for Windows and Linux (YAML kept per release and platform), and Sparkle's appcast
 * (one signed item; the document kept per offered list and feed URL). All are answered from
 * the release catalogue's caches.
 */
export async function updateFeeds(service: Service, seeded: Seeded, label: string): Promise<Figure[]> {
  await seedSignature(service, seeded);
  const feed = `${service.api.baseUrl}/v1/updates/${seeded.applicationId}`;
  const headers = { authorization: `Bearer ${seeded.customerKey}` };
  const pid = service.pid;
  const checks: [string, LoadTarget][] = [
    [`GET /v1/updates/:applicationId/tauri/windows/x86_64/${RUNNING_VERSION} (204)`, { url: `${feed}/tauri/windows/x86_64/${RUNNING_VERSION}`, headers, expectStatus: 204, pid }],
    [`GET /v1/updates/:applicationId/squirrel-mac/${RUNNING_VERSION} (204)`, { url: `${feed}/squirrel-mac/${RUNNING_VERSION}`, headers, expectStatus: 204, pid }],
    ['GET /v1/updates/:applicationId/electron/latest.yml', { url: `${feed}/electron/latest.yml`, headers, expectStatus: 200, pid }],
    ['GET /v1/updates/:applicationId/electron/latest-linux.yml', { url: `${feed}/electron/latest-linux.yml`, headers, expectStatus: 200, pid }],
    ['GET /v1/updates/:applicationId/sparkle/stable/appcast.xml', { url: `${feed}/sparkle/stable/appcast.xml`, headers, expectStatus: 200, pid }],
  ];
  const bare = await startBareKoa();
  try {
    const figures: Figure[] = [];
    for (const [path, target] of checks) {
      const name = `${label}${path} @50c`;
      figures.push(...rateAndP99Figures({ rate: `${name} req/s`, p99: `${name} p99` }, await compareLoad(bare.target, target, 50), 'bare Koa', { minRateRatio: 0.6, ...HOT_ROUTE_TARGETS }));
    }
    return figures;
  } finally {
    await bare.stop();
  }
}

/**
 * The seeded version's update signatures: Tauri and Sparkle clients are offered only signed releases
 * (any bytes of the right form do: the bench application has no key).
 */
async function seedSignature(service: Service, seeded: Seeded): Promise<void> {
  const signatures: [string, string][] = [['setup.bin.sig', randomBytes(400).toString('base64')], ['setup.bin.edsig', randomBytes(64).toString('base64')]];
  for (const [fileName, content] of signatures) {
    const form = new FormData();
    form.set('applicationId', seeded.applicationId);
    form.set('version', seeded.version);
    form.set('fileType', 'SIGNATURE');
    form.set('file', new Blob([content], { type: 'application/octet-stream' }), fileName);
    await service.api.admin('/v1/management/upload', { form });
  }
}
