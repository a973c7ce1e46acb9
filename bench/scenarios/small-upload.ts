import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { withBareFiles } from '../bare-servers';
import { formatBytes, scaled } from '../byte-sizes';
import { checkTransfers, curlSequential } from '../curl';
import type { Figure } from '../figures';
import { MIB } from '../sample-stats';
import type { Seeded } from '../seed';
import type { Service } from '../service';
import { compareTransfers, rssGrowthFigure, settleDisk, throughputFigure } from '../transfers';

const FILE_BYTES = scaled(10 * MIB);
const UPLOADS = 20;

/**
 * N sequential multipart uploads of one file (10 MiB, the largest the endpoint takes), each to a new
 * version, against a bare server that parses the same form with busboy into a file; curl sends both
 * on one connection. Also the RSS growth of each while they run: the body is streamed, never held.
 * `minRatio`: the target, where the baseline is comparable (local objects).
 */
export async function smallUpload(service: Service, seeded: Seeded, label: string, minRatio?: number): Promise<Figure[]> {
  return withBareFiles('bds-bench-small-', async (dir, bare) => {
    const file = path.join(dir, 'setup.bin');
    fs.writeFileSync(file, randomBytes(FILE_BYTES));
    const form = (version: string) => [
      ...['--form', `applicationId=${seeded.applicationId}`, '--form', `version=${version}`, '--form', 'fileType=MAIN'],
      ...['--form', `file=@${file};type=application/octet-stream;filename=setup.bin`],
    ];
    const uploads = async (url: (i: number) => string, headers: string[], run: number) => {
      const requests = Array.from({ length: UPLOADS }, (_, i) => ({ url: url(i), options: [...headers, ...form(`2.${run}.${i}`)] }));
      return checkTransfers(await curlSequential(requests), 'small upload', 201);
    };
    const runs = await compareTransfers(
      UPLOADS * FILE_BYTES,
      { pid: bare.pid, run: (run) => uploads((i) => `${bare.baseUrl}/small-${run}-${i}.bin`, [], run) },
      {
        pid: service.pid,
        run: (run) => uploads(() => `${service.api.baseUrl}/v1/management/upload`, ['--header', `Authorization: Bearer ${service.api.adminKey}`], run),
      },
      settleDisk,
    );
    return [
      throughputFigure(`${label}small upload ${formatBytes(FILE_BYTES)} x${UPLOADS} sequential`, runs, 'bare node:http + busboy, file part to a file', minRatio),
      rssGrowthFigure(`${label}small upload: RSS growth of the service`, runs),
    ];
  });
}
