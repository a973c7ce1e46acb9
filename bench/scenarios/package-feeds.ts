import { randomBytes } from 'node:crypto';
import { startBareKoa } from '../bare-servers';
import type { Figure } from '../figures';
import { compareLoad, HOT_ROUTE_TARGETS, LoadTarget, rateAndP99Figures } from '../load';
import type { Seeded } from '../seed';
import type { Service } from '../service';

/**
 * The Squirrel.Windows and Velopack checks installed Windows apps send at every launch, each next to
 * the bare Koa route measured in the same run at 50 connections: RELEASES for a client on the newest
 * version (its own full entry: key, access, the offered releases' packages, a line with an absolute
 * link) and Velopack's releases.win.json for the same client (the asset list as JSON, its notes
 * rendered once per version). Both are answered from the release catalogue's caches.
 */
export async function packageFeeds(service: Service, seeded: Seeded, label: string): Promise<Figure[]> {
  await seedPackage(service, seeded);
  const feed = `${service.api.baseUrl}/v1/updates/${seeded.applicationId}`;
  const headers = { authorization: `Bearer ${seeded.customerKey}` };
  const pid = service.pid;
  const client = `id=BenchApp&localVersion=${seeded.version}`;
  const checks: [string, LoadTarget][] = [
    ['GET /v1/updates/:applicationId/squirrel-windows/RELEASES', { url: `${feed}/squirrel-windows/RELEASES?${client}&arch=amd64`, headers, expectStatus: 200, pid }],
    ['GET /v1/updates/:applicationId/velopack/releases.win.json', { url: `${feed}/velopack/releases.win.json?${client}`, headers, expectStatus: 200, pid }],
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

/** The seeded version's full Windows package (recognised by its name as an UPDATE file). */
async function seedPackage(service: Service, seeded: Seeded): Promise<void> {
  const form = new FormData();
  form.set('applicationId', seeded.applicationId);
  form.set('version', seeded.version);
  form.set('platform', 'windows');
  form.set('file', new Blob([randomBytes(64 * 1024)], { type: 'application/octet-stream' }), `BenchApp-${seeded.version}-full.nupkg`);
  await service.api.admin('/v1/management/upload', { form });
}
