import fc from 'fast-check';
import type { Mutation } from '../draft';
import { unknownQueryParameter, unreadBodyOddities } from '../mutations';
import { putBodyDefects, putBodyOddities, signatureDefects, signedUrlOddities, signedUrlParts } from '../signed-urls';
import type { RouteContext } from './context';
import { draft, fuzzer, RouteFuzzer, unkeyed } from './route-fuzzer';

const OBJECT = '/v1/objects/:key(.+)';

/** The landing page and the icon, health checks, the API description and its reference page, and the embedded object store's signed URLs: routes no key opens. */
export function unkeyedFuzzers({ f, admin, known }: RouteContext): RouteFuzzer[] {
  const unneededKey = fc.constant<Mutation>({ label: 'a key health does not need', defect: false, apply: (d) => { d.authorization = admin; } });
  const health = (path: string) => fuzzer({
    method: 'GET', path, changesData: false,
    base: draft('GET', path, {}, null),
    ...unkeyed([], [unknownQueryParameter(false), unreadBodyOddities, unneededKey]),
  });
  const download = signedUrlParts(f.downloadTarget);
  const upload = signedUrlParts(f.upload.target);
  return [
    health('/'),
    health('/favicon.svg'),
    health('/v1/vendor'),
    health('/v1/vendor/logo'),
    health('/healthz'),
    health('/readyz'),
    health('/v1/openapi.json'),
    health('/docs/api'),
    fuzzer({
      method: 'GET', path: OBJECT, changesData: false,
      base: draft('GET', download.path, download.params, null, { kind: 'none' }, download.query),
      ...unkeyed(signatureDefects(download, upload.params.key), [...signedUrlOddities, unreadBodyOddities]),
    }),
    fuzzer({
      method: 'PUT', path: OBJECT, changesData: true,
      base: draft('PUT', upload.path, upload.params, null, { kind: 'bytes', bytes: Buffer.alloc(f.upload.fileSize, 0x61), contentType: 'application/octet-stream' }, upload.query),
      ...unkeyed([...signatureDefects(upload, download.params.key), ...putBodyDefects(f.upload.fileSize)], [...signedUrlOddities, ...putBodyOddities], known.hugeDeclaredLengths),
    }),
  ];
}
