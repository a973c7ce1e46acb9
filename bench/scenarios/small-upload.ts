import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { withBareFiles } from '../bare-servers';
import { formatBytes, scaled } from '../byte-sizes';
import { checkTransfers, CurlRun, curlSequential } from '../curl';
import type { Figure } from '../figures';
import { MIB } from '../sample-stats';
import type { Seeded } from '../seed';
import type { Service } from '../service';
import { compareTransfers, rssGrowthFigure, settleDisk, throughputFigure } from '../transfers';

export const SMALL_FILE_BYTES = scaled(10 * MIB);
export const SMALL_UPLOADS = 20;

/** The file every small upload sends: 10 MiB, the largest the endpoint takes. */
export function writeSmallFile(dir: string): string {
  const file = path.join(dir, 'setup.bin');
  fs.writeFileSync(file, randomBytes(SMALL_FILE_BYTES));
  return file;
}

/** curl's form fields for one upload of `file` as a MAIN file of `version`. */
const form = (applicationId: string, version: string, file: string) => [
  ...['--form', `applicationId=${applicationId}`, '--form', `version=${version}`, '--form', 'fileType=MAIN'],
  ...['--form', `file=@${file};type=application/octet-stream;filename=setup.bin`],
];

/** One run of the figure: SMALL_UPLOADS sequential uploads of `file` to the service, each to a new version, on one connection. */
export function serviceUploads(service: Service, seeded: Seeded, file: string, versionPrefix: string): (run: number) => Promise<CurlRun> {
  return async (run) => {
    const requests = Array.from({ length: SMALL_UPLOADS }, (_, i) => ({
      url: `${service.api.baseUrl}/v1/management/upload`,
      options: ['--header', `Authorization: Bearer ${service.api.adminKey}`, ...form(seeded.applicationId, `${versionPrefix}.${run}.${i}`, file)],
    }));
    return checkTransfers(await curlSequential(requests), 'small upload', 201);
  };
}

/**
 * N sequential multipart uploads of one file (10 MiB, the largest the endpoint takes), each to a new
 * version, against a bare server that parses the same form with busboy into a file while computing
 * its SHA-256 and SHA-512 (the work an upload requires), and against the same bare server without
 * the digests; curl sends each on one connection. Also the RSS growth of the service while it runs:
 * the body is streamed, never held. `minRatio`: the target against the digesting baseline, where the
 * baseline is comparable (local objects).
 */
export async function smallUpload(service: Service, seeded: Seeded, label: string, minRatio?: number): Promise<Figure[]> {
  return withBareFiles('bds-bench-small-', async (dir, bare) => {
    const file = writeSmallFile(dir);
    const bareUploads = (query: string) => async (run: number) => {
      const requests = Array.from({ length: SMALL_UPLOADS }, (_, i) => ({ url: `${bare.baseUrl}/small-${query}-${run}-${i}.bin?${query}`, options: form('bare', `2.${run}.${i}`, file) }));
      return checkTransfers(await curlSequential(requests), 'small upload', 201);
    };
    const name = `${label}small upload ${formatBytes(SMALL_FILE_BYTES)} x${SMALL_UPLOADS} sequential`;
    const digested = await compareTransfers(
      SMALL_UPLOADS * SMALL_FILE_BYTES,
      { pid: bare.pid, run: bareUploads('digests') },
      { pid: service.pid, run: serviceUploads(service, seeded, file, '2') },
      settleDisk,
    );
    const plain = await compareTransfers(
      SMALL_UPLOADS * SMALL_FILE_BYTES,
      { pid: bare.pid, run: bareUploads('plain') },
      { pid: service.pid, run: serviceUploads(service, seeded, file, '4') },
      settleDisk,
    );
    return [
      throughputFigure(name, digested, 'bare node:http + busboy to a file, SHA-256 + SHA-512', minRatio),
      throughputFigure(`${name}, against no digests`, plain, 'bare node:http + busboy, file part to a file'),
      rssGrowthFigure(`${label}small upload: RSS growth of the service`, digested),
    ];
  });
}
