import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import IORedis from 'ioredis';
import { valid as validSemVer } from 'semver';
import { z } from 'zod';
import { rollupChecks } from '../../shared/adoption/rollup-checks';
import { applicationIdField } from '../../shared/contract/fields';
import { archOfTauriArch, platformOfTauriTarget, type OperatingSystem } from '../../shared/releases/update-client-names';
import type { Arch } from '../../shared/releases/platforms';
import { ALL } from '../../shared/store/models';
import { notFound } from '../../shared/errors';
import type { RouteModule } from '../../gateway/gateway-deps';
import type { GatewayServices } from '../../gateway/gateway-services';
import { documentResponse, route } from '../../gateway/http/route';
import { andThen } from '../../gateway/http/eventually';
import { feedDate } from '../../gateway/updates/engine/feed-dates';
import { fileLink, type FeedDocument, type FeedFamily, type FeedRequest } from '../../gateway/updates/engine/feed-family';
import { signedMain, type TauriOffer } from '../../gateway/updates/tauri/tauri-family';
import { createApplication, createCustomer, uploadSmallFile } from '../support/factories';
import { pollUntil } from '../support/poll';
import { startTestApp, TestApp } from '../support/test-app';

/*
 * A new update client is one family module and one route declaration: this file adds one the
 * service does not serve, Tauri's static JSON for one target (`latest.json`, the format tauri-action
 * publishes: the newest signed release whatever the caller runs, under `platforms["<os>-<arch>"]`),
 * and shows that the engine gives it what every feed has: the caller's offered releases, the
 * stored answer with its ETag and 304, HEAD, the guard's refusals, the check recorded once, and
 * its place in the API description (the route is declared beside the others, never instead of one).
 */

interface StaticCheck extends FeedRequest {
  target: string;
  tauriArch: string;
  platform: OperatingSystem;
  arch: Arch;
  channel: string;
}

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
const NOTHING_OFFERED: FeedDocument = Object.freeze({ status: 204, contentType: '', body: Buffer.alloc(0), offeredVersion: null });

/** The family module: pure, what it reads beside the offered list comes in `sources` and `links`. */
const tauriStaticJson: FeedFamily<StaticCheck, TauriOffer | null> = {
  selector: ({ applicationId, channel, platform, arch }) => ({ applicationId, channel, platform, arch }),
  key: ({ target, tauriArch }, links) => `tauri-static/${target}/${tauriArch}/${links.base}`,
  pick: (offered, { platform, arch }, sources) => {
    const release = offered.find((candidate) => validSemVer(candidate.version.version) && signedMain(candidate, platform, arch));
    const files = release && signedMain(release, platform, arch);
    if (!release || !files) return null;
    return andThen(sources.signature(files.signature), (signature): TauriOffer => ({ release, main: files.main, signature }), undefined);
  },
  document: (offer, links, { applicationId, target, tauriArch }) => {
    if (!offer) return NOTHING_OFFERED;
    const { version } = offer.release;
    const body = {
      version: version.version,
      notes: version.releaseNotes ?? '',
      pub_date: feedDate(version),
      platforms: { [`${target}-${tauriArch}`]: { signature: offer.signature, url: fileLink(links, applicationId, offer.main) } },
    };
    return { contentType: JSON_CONTENT_TYPE, body: Buffer.from(JSON.stringify(body)), offeredVersion: version.version };
  },
  check: ({ applicationId, platform, arch, channel }, { offeredVersion }) =>
    ({ applicationId, client: 'tauri', platform, arch, channel, runningVersion: undefined, offeredVersion, installId: null }),
};

/** The route declaration. */
const tauriStaticRoutes: RouteModule<GatewayServices> = (_deps, { feedAnswers }) => [
  route({
    method: 'get', path: '/v1/updates/:applicationId/tauri-static/:target/:arch/latest.json', operationId: 'getTauriStaticJson', guard: 'customer', noStore: true,
    summary: "Tauri's static JSON for one target: the newest signed release; 304 when If-None-Match names its ETag",
    params: z.object({ applicationId: applicationIdField, target: z.string().max(32), arch: z.string().max(32) }), hot: true,
    status: [200, 204, 304], response: documentResponse('application/json', "Tauri's static JSON: {version, notes, pub_date, platforms}"),
    handle: ({ params }, ctx, customer) => {
      const platform = platformOfTauriTarget(params.target);
      const arch = archOfTauriArch(params.arch);
      if (!platform || !arch) throw notFound(`no build for Tauri target ${params.target} and arch ${params.arch}`);
      return feedAnswers.answer(tauriStaticJson, ctx, customer, { applicationId: params.applicationId, target: params.target, tauriArch: params.arch, platform, arch, channel: 'stable' });
    },
  }),
];

describe('a feed family added as one module and one route', function () {
  this.timeout(60_000);
  let app: TestApp;
  let redis: IORedis;
  let applicationId: string;
  let customer: { customerId: string; apiKey: string };
  let feedUrl: string;

  const publish = async (version: string) => {
    await uploadSmallFile(app, { applicationId, version, fileName: 'App_x64-setup.exe', platform: 'windows', arch: 'x64' });
    // The application has no update key: any signature text is taken, as `tauri signer sign` writes one.
    await uploadSmallFile(app, { applicationId, version, fileName: 'App_x64-setup.exe.sig', fileType: 'SIGNATURE', platform: 'windows', arch: 'x64', content: Buffer.from(randomBytes(300).toString('base64')) });
  };
  const get = (headers: Record<string, string> = {}, method = 'GET') => app.http.request(method, feedUrl, { key: customer.apiKey, headers });

  before(async () => {
    app = await startTestApp({ workers: false, routeModules: [tauriStaticRoutes] });
    redis = new IORedis(app.config.redisUrl as string);
    customer = await createCustomer(app);
    ({ applicationId } = await createApplication(app, { customerIds: [customer.customerId] }));
    feedUrl = `/v1/updates/${applicationId}/tauri-static/windows/x86_64/latest.json`;
  });
  after(async () => {
    redis.disconnect();
    await app?.close();
  });

  it('answers 204 while nothing signed is offered, then the newest signed release with a link its downloads follow', async () => {
    expect((await get()).status).to.equal(204);
    await publish('1.0.0');
    const answer = await get();
    expect(answer.status).to.equal(200);
    expect(answer.headers.get('cache-control')).to.equal('no-store');
    expect(answer.body).to.include({ version: '1.0.0' });
    const build = answer.body.platforms['windows-x86_64'];
    expect(build.url).to.equal(`${app.config.publicBaseUrl}/v1/updates/${applicationId}/electron/1.0.0/App_x64-setup.exe`);
    const download = await app.http.request('GET', new URL(build.url).pathname, { key: customer.apiKey });
    expect(download.status).to.equal(302);
  });

  it('keeps its answer with an ETag: the same bytes again, 304 on If-None-Match, HEAD without a body, a new ETag once a release is added', async () => {
    const first = await get();
    const etag = first.headers.get('etag') as string;
    expect(etag).to.match(/^"[A-Za-z0-9_-]+"$/);
    const again = await get();
    expect(again.headers.get('etag')).to.equal(etag);
    expect(again.raw.equals(first.raw)).to.equal(true);
    const revalidated = await get({ 'If-None-Match': etag });
    expect(revalidated.status).to.equal(304);
    expect(revalidated.raw.length).to.equal(0);
    const head = await get({}, 'HEAD');
    expect(head.status).to.equal(200);
    expect(head.raw.length).to.equal(0);
    await publish('1.1.0');
    const newer = await pollUntil(async () => {
      const answer = await get({ 'If-None-Match': etag });
      return answer.status === 200 ? answer : undefined;
    }, 10_000, 'the new release offered');
    expect(newer.body).to.include({ version: '1.1.0' });
    expect(newer.headers.get('etag')).not.to.equal(etag);
  });

  it('refuses as every feed does: no key 401, a customer without the application 404, an unknown target 404', async () => {
    expect((await app.http.request('GET', feedUrl, { key: null })).status).to.equal(401);
    const stranger = await createCustomer(app);
    expect((await app.http.request('GET', feedUrl, { key: stranger.apiKey })).status).to.equal(404);
    expect((await app.http.request('GET', `/v1/updates/${applicationId}/tauri-static/plan9/x86_64/latest.json`, { key: customer.apiKey })).status).to.equal(404);
  });

  it('records each answered GET as a check of its client, a HEAD as none', async () => {
    // An application of its own: its counters start at nothing.
    const { applicationId: counted } = await createApplication(app, { customerIds: [customer.customerId] });
    const url = `/v1/updates/${counted}/tauri-static/windows/x86_64/latest.json`;
    for (const method of ['GET', 'HEAD', 'GET']) expect((await app.http.request(method, url, { key: customer.apiKey })).status).to.equal(204);
    const today = new Date().toISOString().slice(0, 10);
    const all = await pollUntil(async () => {
      while ((await rollupChecks(app.core.store, redis, app.config.redisPrefix, 1_000)) > 0);
      const counts = await app.core.store.adoption.listAdoptionCounts(counted, { channel: ALL, platform: ALL, arch: ALL, from: today, to: today });
      return counts.find((count) => count.version === ALL && count.checks === 2);
    }, 20_000, 'two checks counted');
    expect(all).to.include({ checks: 2, installs: 1 });
  });

  it('is described in the API description with the routes it was declared beside', async () => {
    const description = (await app.http.get('/v1/openapi.json', { key: null })).body;
    expect(description.paths).to.have.property('/v1/updates/{applicationId}/tauri-static/{target}/{arch}/latest.json');
  });
});
