import { randomBytes } from 'node:crypto';
import { figure, Figure } from '../figures';
import { readRssKiB, sampleRss } from '../rss';
import { MIB } from '../sample-stats';
import { Seeded, smallUploadForm } from '../seed';
import type { Service } from '../service';

const FILE_BYTES = 10 * MIB;
const UPLOADS = 20;

/**
 * N sequential multipart uploads of exactly 10 MiB, each to a new version: throughput, and the
 * service's peak RSS while they run (the body is streamed to storage, so it should stay near the idle RSS).
 */
export async function smallUpload(service: Service, seeded: Seeded, label: string): Promise<Figure[]> {
  const content = randomBytes(FILE_BYTES);
  const idleKiB = readRssKiB(service.pid);
  const sampler = sampleRss(service.pid);
  const started = performance.now();
  for (let i = 0; i < UPLOADS; i += 1) {
    await service.api.admin('/v1/management/upload', { form: smallUploadForm(seeded.applicationId, `2.0.${i}`, content) });
  }
  const seconds = (performance.now() - started) / 1000;
  const { peakKiB, samples } = sampler.stop();
  return [
    figure({
      name: `${label}small upload 10 MiB x${UPLOADS} sequential`,
      value: (UPLOADS * FILE_BYTES) / MIB / seconds,
      unit: 'MiB/s',
      detail: { uploads: UPLOADS, bytesEach: FILE_BYTES, seconds },
    }),
    figure({
      name: `${label}small upload peak RSS of the service`,
      value: peakKiB / 1024,
      unit: 'MiB',
      baseline: { name: 'RSS before', value: idleKiB / 1024 },
      detail: { samples, everyMs: 50 },
    }),
  ];
}
