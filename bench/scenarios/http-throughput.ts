import { figure, Figure } from '../figures';
import { startBareKoa } from '../bare-servers';
import { makeTempDir } from '../cleanup';
import { compareLoad, HOT_ROUTE_TARGETS, LoadTarget, rateAndP99Figures } from '../load';
import { Seeded, seedThroughApi } from '../seed';
import { Service, startService } from '../service';

const CONNECTIONS = [50, 200] as const;

/**
 * Request rate and latency of the two hot customer paths, each next to the bare Koa route measured
 * in the same run at the same connection count: GET /v1/downloads/url (key lookup, access check,
 * signing, one stored event per answer) and share-link resolution (302 to a fresh signed URL).
 */
export async function httpThroughput(service: Service, seeded: Seeded, label: string): Promise<Figure[]> {
  const bare = await startBareKoa();
  try {
    const downloadUrl = downloadUrlTarget(service, seeded, `version=${seeded.version}`);
    const shareLink = shareLinkTarget(service, seeded);

    const figures: Figure[] = [];
    for (const connections of CONNECTIONS) {
      const compared = await compareLoad(bare.target, downloadUrl, connections);
      const name = `${label}GET /v1/downloads/url @${connections}c`;
      const targets = connections === 50 ? { minRateRatio: 0.6, ...HOT_ROUTE_TARGETS } : {};
      figures.push(
        ...rateAndP99Figures({ rate: `${name} req/s`, p99: `${name} p99` }, compared, 'bare Koa', targets),
        figure({ name: `${name} p50`, value: compared.subject.p50Ms, unit: 'ms', baseline: { name: 'bare Koa', value: compared.baseline.p50Ms } }),
      );
    }

    figures.push(...rateAndP99Figures(
      { rate: `${label}GET /v1/downloads/share/:token (302) @50c req/s`, p99: `${label}GET /v1/downloads/share/:token @50c p99` },
      await compareLoad(bare.target, shareLink, 50), 'bare Koa', { minRateRatio: 0.4, ...HOT_ROUTE_TARGETS },
    ));
    return figures;
  } finally {
    await bare.stop();
  }
}

/** The platform the latest-version figure selects by; the seeded MAIN file is for any platform, so it matches. */
const LATEST_PLATFORM = 'windows';

/**
 * GET /v1/downloads/url?version=latest&platform=... next to the exact-version request measured in the
 * same run, alternating, at 50 connections: resolving `latest` (channel, tier, rollout, platform) is
 * cached like the rest of the download path, so it should cost next to nothing more.
 */
export async function latestDownloadUrl(service: Service, seeded: Seeded, label: string): Promise<Figure[]> {
  const exact = downloadUrlTarget(service, seeded, `version=${seeded.version}`);
  const latest = downloadUrlTarget(service, seeded, `version=latest&platform=${LATEST_PLATFORM}`);
  const name = `${label}GET /v1/downloads/url?version=latest&platform=${LATEST_PLATFORM} @50c`;
  const figures = rateAndP99Figures({ rate: `${name} req/s`, p99: `${name} p99` }, await compareLoad(exact, latest, 50), 'exact version', { minRateRatio: 0.9 });
  // The latest link answers the same resolution with a 302 (its path parsed once per URL by the hot lane).
  const link = latestLinkTarget(service, seeded);
  const linkName = `${label}GET /v1/downloads/latest/:applicationId/${LATEST_PLATFORM}/x64 (302) @50c`;
  figures.push(...rateAndP99Figures({ rate: `${linkName} req/s`, p99: `${linkName} p99` }, await compareLoad(latest, link, 50), 'download URL latest', { minRateRatio: 0.9 }));
  const bare = await startBareKoa();
  try {
    const againstBare = `${name} vs bare Koa`;
    figures.push(...rateAndP99Figures(
      { rate: `${againstBare} req/s`, p99: `${againstBare} p99` }, await compareLoad(bare.target, latest, 50), 'bare Koa', { minRateRatio: 0.6, ...HOT_ROUTE_TARGETS },
    ));
    const linkAgainstBare = `${linkName} vs bare Koa`;
    figures.push(...rateAndP99Figures(
      { rate: `${linkAgainstBare} req/s`, p99: `${linkAgainstBare} p99` }, await compareLoad(bare.target, link, 50), 'bare Koa', { minRateRatio: 0.6, ...HOT_ROUTE_TARGETS },
    ));
  } finally {
    await bare.stop();
  }
  return figures;
}

/**
 * What rate limits cost the two hot paths: the service as the bench runs it (every request counted,
 * none refused) against a second one started with RATE_LIMITS=off and seeded alike, runs alternating
 * at 50 connections.
 */
export async function rateLimitCost(limited: Service, seeded: Seeded, redisUrl: string, label: string): Promise<Figure[]> {
  const dataDir = makeTempDir('bds-bench-unlimited-');
  const unlimited = await startService({ dataDir: dataDir.path, redisUrl, env: { RATE_LIMITS: 'off' } });
  try {
    const unlimitedSeeded = await seedThroughApi(unlimited.api);
    const paths: [string, (service: Service, seeded: Seeded) => LoadTarget][] = [
      ['GET /v1/downloads/url', (service, target) => downloadUrlTarget(service, target, `version=${target.version}`)],
      ['GET /v1/downloads/share/:token (302)', shareLinkTarget],
    ];
    const figures: Figure[] = [];
    for (const [path, target] of paths) {
      const name = `${label}${path} @50c, rate limits on vs off`;
      const compared = await compareLoad(target(unlimited, unlimitedSeeded), target(limited, seeded), 50);
      figures.push(...rateAndP99Figures({ rate: `${name} req/s`, p99: `${name} p99` }, compared, 'RATE_LIMITS=off', { minRateRatio: 0.9 }));
    }
    return figures;
  } finally {
    await unlimited.stop();
    await dataDir.remove();
  }
}

function latestLinkTarget(service: Service, seeded: Seeded): LoadTarget {
  return {
    url: `${service.api.baseUrl}/v1/downloads/latest/${seeded.applicationId}/${LATEST_PLATFORM}/x64`,
    headers: { authorization: `Bearer ${seeded.customerKey}` },
    expectStatus: 302,
    pid: service.pid,
  };
}

function shareLinkTarget(service: Service, seeded: Seeded): LoadTarget {
  return { url: `${service.api.baseUrl}/v1/downloads/share/${seeded.shareToken}`, expectStatus: 302, pid: service.pid };
}

function downloadUrlTarget(service: Service, seeded: Seeded, version: string): LoadTarget {
  return {
    url: `${service.api.baseUrl}/v1/downloads/url?applicationId=${seeded.applicationId}&${version}`,
    headers: { authorization: `Bearer ${seeded.customerKey}` },
    expectStatus: 200,
    pid: service.pid,
  };
}

export interface SeededService {
  service: Service;
  seeded: Seeded;
}

/**
 * What counting costs the download path: the two hot paths of a service with metrics on
 * (METRICS_TOKEN set) next to the same service with metrics off, both fresh and seeded alike, runs
 * alternating. Afterwards the metered service must have counted the requests, or the figure would
 * compare two services without metrics.
 */
export async function metricsOverhead(off: SeededService, on: SeededService, metricsToken: string): Promise<Figure[]> {
  const hotPaths = ({ service, seeded }: SeededService) => ({
    downloadUrl: downloadUrlTarget(service, seeded, `version=${seeded.version}`),
    shareLink: shareLinkTarget(service, seeded),
  });
  const plain = hotPaths(off);
  const metered = hotPaths(on);
  const figures: Figure[] = [];
  for (const [name, path] of [['GET /v1/downloads/url', 'downloadUrl'], ['GET /v1/downloads/share/:token (302)', 'shareLink']] as const) {
    const names = { rate: `${name} @50c req/s, metrics on`, p99: `${name} @50c p99, metrics on` };
    figures.push(...rateAndP99Figures(names, await compareLoad(plain[path], metered[path], 50), 'metrics off', { minRateRatio: 0.9 }));
  }
  await expectCounted(on.service, metricsToken);
  return figures;
}

async function expectCounted(service: Service, metricsToken: string): Promise<void> {
  const response = await fetch(`${service.api.baseUrl}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
  const text = await response.text();
  const counted = /^http_requests_total\{route="\/v1\/downloads\/url",method="GET",status="200"\} (\d+)/m.exec(text);
  if (response.status !== 200 || !counted || Number(counted[1]) === 0) throw new Error(`the metered service counted no downloads: ${response.status} ${text.slice(0, 300)}`);
}
