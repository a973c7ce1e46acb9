import { figure, Figure } from '../figures';
import { startBareKoa } from '../bare-servers';
import { compareLoad, LoadTarget } from '../load';
import type { Seeded } from '../seed';
import type { Service } from '../service';

const CONNECTIONS = [50, 200] as const;

/**
 * Request rate and latency of the two hot customer paths, each next to the bare Koa route measured
 * in the same run at the same connection count: GET /v1/downloads/url (key lookup, access check,
 * signing, one stored event per answer) and share-link resolution (302 to a fresh signed URL).
 */
export async function httpThroughput(service: Service, seeded: Seeded, label: string): Promise<Figure[]> {
  const bare = await startBareKoa();
  try {
    const downloadUrl: LoadTarget = {
      url: `${service.api.baseUrl}/v1/downloads/url?applicationId=${seeded.applicationId}&version=${seeded.version}`,
      headers: { authorization: `Bearer ${seeded.customerKey}` },
      expectStatus: 200,
    };
    const shareLink: LoadTarget = { url: `${service.api.baseUrl}/v1/downloads/share/${seeded.shareToken}`, expectStatus: 302 };

    const figures: Figure[] = [];
    for (const connections of CONNECTIONS) {
      const { baseline, subject } = await compareLoad(bare.target, downloadUrl, connections);
      const name = `${label}GET /v1/downloads/url @${connections}c`;
      const detail = { baselineRuns: baseline.runs, subjectRuns: subject.runs };
      figures.push(
        figure({
          name: `${name} req/s`,
          value: subject.requestsPerSecond,
          unit: 'req/s',
          baseline: { name: 'bare Koa', value: baseline.requestsPerSecond },
          target: connections === 50 ? { on: 'ratio', op: '>=', limit: 0.6 } : undefined,
          detail,
        }),
        figure({ name: `${name} p50`, value: subject.p50Ms, unit: 'ms', baseline: { name: 'bare Koa', value: baseline.p50Ms } }),
        figure({
          name: `${name} p99`,
          value: subject.p99Ms,
          unit: 'ms',
          baseline: { name: 'bare Koa', value: baseline.p99Ms },
          target: connections === 50 ? { on: 'value', op: '<=', limit: 10 } : undefined,
        }),
      );
    }

    const { baseline, subject } = await compareLoad(bare.target, shareLink, 50);
    figures.push(
      figure({
        name: `${label}GET /v1/downloads/share/:token (302) @50c req/s`,
        value: subject.requestsPerSecond,
        unit: 'req/s',
        baseline: { name: 'bare Koa', value: baseline.requestsPerSecond },
        target: { on: 'ratio', op: '>=', limit: 0.4 },
        detail: { baselineRuns: baseline.runs, subjectRuns: subject.runs },
      }),
      figure({ name: `${label}GET /v1/downloads/share/:token @50c p99`, value: subject.p99Ms, unit: 'ms', baseline: { name: 'bare Koa', value: baseline.p99Ms } }),
    );
    return figures;
  } finally {
    await bare.stop();
  }
}
