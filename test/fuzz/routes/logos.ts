import fc from 'fast-check';
import { LOGO_MAX_BYTES } from '../../../shared/policy';
import { jpegStart, pngImage, svgImage, webpStart } from '../../support/images';
import { defect, Draft, oddity } from '../draft';
import { contentEncoding, declaredLengthOnly, unreadBodyOddities } from '../mutations';
import type { RouteContext } from './context';
import { draft, fuzzer, keyed, plus, RouteFuzzer, values } from './route-fuzzer';

const LOGO = '/v1/management/applications/:applicationId/logo';
const CUSTOMER_LOGO = '/v1/downloads/applications/:applicationId/logo';

/** A logo the fixture's main application does not have: a request that sets it changes the record. */
const NEW_LOGO = pngImage(12, [200, 40, 40]);

const withBytes = (d: Draft, bytes: Buffer, contentType = 'image/png') => {
  d.body = { kind: 'bytes', bytes, contentType };
};

/** Applications' logos: the admin's upload, read and removal, and the customer's read. */
export function logoFuzzers({ f, keys, admin, customer, known, applicationParam }: RouteContext): RouteFuzzer[] {
  const main = f.apps.main;
  const bodyDefects = [
    // SVG, other image types and not images at all: 415, naming the types taken.
    fc.constantFrom('image/svg+xml', 'image/gif', 'text/plain', 'application/json', 'application/octet-stream', 'image/*', 'png', 'image/png2', '')
      .map((type) => defect(`Content-Type ${JSON.stringify(type)}`, (d) => { d.contentType = type; }, [415])),
    fc.constant(defect('no Content-Type', (d) => { d.contentType = null; }, [415])),
    // The declared type and the bytes disagree: 400.
    fc.constantFrom<[string, () => Buffer, string]>(
      ['SVG', svgImage, 'image/png'], ['JPEG', jpegStart, 'image/png'], ['WebP', webpStart, 'image/jpeg'], ['PNG', () => NEW_LOGO, 'image/webp'],
      ['no', () => Buffer.alloc(0), 'image/png'], ['a cut signature of', () => NEW_LOGO.subarray(0, 7), 'image/png'],
    ).map(([what, bytes, type]) => defect(`${what} bytes sent as ${type}`, (d) => withBytes(d, bytes(), type), [400])),
    fc.integer({ min: LOGO_MAX_BYTES + 1, max: LOGO_MAX_BYTES + 70_000 }).map((size) => defect(`a ${size}-byte PNG`, (d) => {
      withBytes(d, Buffer.concat([NEW_LOGO, Buffer.alloc(size - NEW_LOGO.length)]));
    }, [413])),
    // Without a length, reading stops at the limit and the connection closes: the answer may be lost to a reset.
    fc.constant({ ...defect('a chunked body past the limit', (d) => {
      withBytes(d, Buffer.concat([NEW_LOGO, Buffer.alloc(LOGO_MAX_BYTES)]));
      d.chunked = true;
    }, [413]), closesConnection: true }),
    fc.constantFrom(LOGO_MAX_BYTES + 1, 2 ** 31, 2 ** 32 + 10).map(declaredLengthOnly),
    fc.double({ min: 0.05, max: 0.95, noNaN: true }).map((fraction) => defect('body cut short, connection half-closed', (d) => {
      d.truncate = { fraction, declareWhole: true };
    })),
    fc.constantFrom('gzip', 'br', 'deflate').map(contentEncoding),
  ];
  const bodyOddities = [
    fc.constantFrom('image/png; charset=binary', 'IMAGE/PNG', 'image/png ').map((type) => oddity(`Content-Type ${JSON.stringify(type)}`, (d) => { d.contentType = type; })),
    fc.constant(oddity('chunked body', (d) => { d.chunked = true; })),
  ];
  const ifNoneMatch = values(`"${f.logoSha256}"`, '"other"', '*', 'W/"x"').map((tag) => oddity(`If-None-Match ${tag}`, (d) => { d.headers.push(['If-None-Match', tag]); }));
  const upload = () => {
    const d = draft('PUT', LOGO, { applicationId: main }, admin);
    withBytes(d, NEW_LOGO);
    return d;
  };

  return [
    fuzzer({
      method: 'PUT', path: LOGO, changesData: true,
      base: upload,
      ...plus(keyed('admin', keys), [applicationParam(f.apps.deleted), ...bodyDefects], bodyOddities, known.hugeDeclaredLengths),
    }),
    fuzzer({
      method: 'GET', path: LOGO, changesData: false,
      base: draft('GET', LOGO, { applicationId: main }, admin),
      ...plus(keyed('admin', keys), [applicationParam(f.apps.deleted)], [unreadBodyOddities, ifNoneMatch]),
    }),
    fuzzer({
      method: 'DELETE', path: LOGO, changesData: true,
      base: draft('DELETE', LOGO, { applicationId: main }, admin),
      ...plus(keyed('admin', keys), [applicationParam(f.apps.deleted)], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'GET', path: CUSTOMER_LOGO, changesData: false,
      base: draft('GET', CUSTOMER_LOGO, { applicationId: main }, customer),
      // The deleted application and the spare one (no customer of it) are not found, as an unknown one.
      ...plus(keyed('customer', keys), [applicationParam(f.apps.deleted, f.apps.spare)], [
        unreadBodyOddities, ifNoneMatch,
      ]),
    }),
  ];
}
