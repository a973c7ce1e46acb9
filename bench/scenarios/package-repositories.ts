import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildDeb, buildRpm } from '../../test/support/linux-packages';
import { startBareKoa } from '../bare-servers';
import type { Figure } from '../figures';
import { compareLoad, HOT_ROUTE_TARGETS, LoadTarget, rateAndP99Figures } from '../load';
import type { Seeded } from '../seed';
import type { Service } from '../service';

/**
 * What `apt-get update` and `dnf makecache` ask each time, per customer, next to the bare Koa route
 * measured in the same run at 50 connections: the suite's `Packages` of amd64 and the channel's
 * `repomd.xml`, both answered from the index kept for the customer's selection (key, access, the
 * catalogue's offered list, one lookup of the kept index), as an update check is.
 */
export async function packageRepositories(service: Service, seeded: Seeded, label: string): Promise<Figure[]> {
  await seedPackages(service, seeded);
  const repos = `${service.api.baseUrl}/v1/repos/${seeded.applicationId}`;
  const headers = { authorization: `Bearer ${seeded.customerKey}` };
  const pid = service.pid;
  const checks: [string, LoadTarget][] = [
    ['GET /v1/repos/:applicationId/apt/dists/stable/main/binary-amd64/Packages', { url: `${repos}/apt/dists/stable/main/binary-amd64/Packages`, headers, expectStatus: 200, pid }],
    ['GET /v1/repos/:applicationId/rpm/stable/repodata/repomd.xml', { url: `${repos}/rpm/stable/repodata/repomd.xml`, headers, expectStatus: 200, pid }],
  ];
  // The first request of each builds and signs the index; the load then measures what every later update costs.
  for (const [, target] of checks) {
    const response = await fetch(target.url, { headers });
    if (response.status !== 200) throw new Error(`${target.url} answered ${response.status}`);
  }
  const bare = await startBareKoa();
  try {
    const figures: Figure[] = [];
    for (const [route, target] of checks) {
      const name = `${label}${route} @50c`;
      figures.push(...rateAndP99Figures({ rate: `${name} req/s`, p99: `${name} p99` }, await compareLoad(bare.target, target, 50), 'bare Koa', { minRateRatio: 0.6, ...HOT_ROUTE_TARGETS }));
    }
    return figures;
  } finally {
    await bare.stop();
  }
}

/** A .deb and an .rpm of the seeded version, built by dpkg-deb and rpmbuild, uploaded for Linux x64. */
async function seedPackages(service: Service, seeded: Seeded): Promise<void> {
  const directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'bds-bench-packages-'));
  try {
    const files = [
      await buildDeb(directory, { name: 'bench-app', version: seeded.version, arch: 'amd64' }),
      await buildRpm(directory, { name: 'bench-app', version: seeded.version, arch: 'x86_64' }),
    ];
    for (const file of files) {
      const form = new FormData();
      form.set('applicationId', seeded.applicationId);
      form.set('version', seeded.version);
      form.set('platform', 'linux');
      form.set('arch', 'x64');
      form.set('fileType', 'DEPENDENCY');
      form.set('file', new Blob([await fsp.readFile(file)], { type: 'application/octet-stream' }), path.basename(file));
      await service.api.admin('/v1/management/upload', { form });
    }
  } finally {
    await fsp.rm(directory, { recursive: true, force: true });
  }
}
