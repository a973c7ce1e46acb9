import fc from 'fast-check';
import { defect, Draft, Mutation, oddity } from './draft';
import { declaredLengthOnly } from './mutations';
import { HUGE_LENGTHS, TRAVERSALS } from './values';

/*
 * The embedded object store's signed URLs: what makes a signature not grant the request (any
 * change to what it covers), and, for PUT, a body that is not the signed length.
 */

const OBJECTS_PREFIX = '/v1/objects/';
/** A signature that does not match. */
const REFUSED = [403];
/** A query that is not a signed URL's: refused by its shape (400) or by the signature check. */
const MALFORMED = [400, 403];

/** A signed URL's path and query as draft parts: the object key in `key`, the query as sent. */
export function signedUrlParts(pathAndQuery: string): Pick<Draft, 'path' | 'params' | 'query'> {
  const [path, query = ''] = pathAndQuery.split('?');
  if (!path.startsWith(OBJECTS_PREFIX)) throw new Error(`not an object URL: ${pathAndQuery}`);
  return {
    path: '/v1/objects/:key(.+)',
    params: { key: path.slice(OBJECTS_PREFIX.length) },
    query: query.split('&').filter(Boolean).map((pair) => {
      const at = pair.indexOf('=');
      return at < 0 ? [pair, null] : [pair.slice(0, at), pair.slice(at + 1)];
    }),
  };
}

/** Sets every occurrence of a parameter to `value`, or removes them all (undefined). */
const replaceParam = (draft: Draft, name: string, value: string | undefined) => {
  const kept = draft.query.filter(([existing]) => existing !== name);
  draft.query = value === undefined ? kept : [...kept, [name, value]];
};

/**
 * Changes to what the signature of `url` covers, or to the signature: the URL no longer grants
 * anything. Each sets a value other than the URL's own, so no two of them undo each other.
 */
export function signatureDefects(url: Pick<Draft, 'query'>, otherKey: string): fc.Arbitrary<Mutation>[] {
  const original = (name: string) => url.query.find(([existing]) => existing === name)?.[1] ?? undefined;
  const present = url.query.map(([name]) => name).filter((name) => name.startsWith('X-'));
  const signature = original('X-Signature') ?? '';
  // An empty value of a parameter the URL lacks reads as the parameter's absence: the same grant.
  const differentFrom = (name: string, values: string[]) => values.filter((value) => value !== original(name) && (value !== '' || original(name) !== undefined));
  return [
    fc.nat({ max: signature.length - 1 }).map((at) => defect('one digit of the signature changed', (draft) => {
      const digit = signature[at] === '0' ? '1' : '0';
      replaceParam(draft, 'X-Signature', `${signature.slice(0, at)}${digit}${signature.slice(at + 1)}`);
    }, REFUSED)),
    fc.constantFrom(...present).map((name) => defect(`${name} removed`, (draft) => replaceParam(draft, name, undefined), MALFORMED)),
    fc.constantFrom(...differentFrom('X-Expires', ['0', '1', '-1', '99999999999', '1e10', 'abc', '', '0x10', '%00'])).map((expires) => defect(`X-Expires=${expires}`, (draft) => {
      replaceParam(draft, 'X-Expires', expires);
    }, MALFORMED)),
    fc.constantFrom(...differentFrom('X-Method', ['GET', 'PUT', 'HEAD', 'DELETE', 'get', ''])).map((method) => defect(`X-Method=${method}`, (draft) => {
      replaceParam(draft, 'X-Method', method);
    }, MALFORMED)),
    fc.constantFrom(...differentFrom('X-Length', ['0', '1', '999999999999', '-1'])).map((length) => defect(`X-Length=${length}`, (draft) => {
      replaceParam(draft, 'X-Length', length);
    }, MALFORMED)),
    fc.constantFrom(...differentFrom('X-Disposition', ['attachment', 'inline', ''])).map((disposition) => defect(`X-Disposition=${disposition}`, (draft) => {
      replaceParam(draft, 'X-Disposition', disposition);
    }, REFUSED)),
    fc.constant(defect('a second X-Signature after a wrong one', (draft) => {
      draft.query = [['X-Signature', '0'.repeat(64)], ...draft.query.filter(([name]) => name !== 'X-Signature'), ['X-Signature', signature]];
    }, MALFORMED)),
    fc.constant(defect('no query at all', (draft) => {
      draft.query = [];
    }, MALFORMED)),
    fc.oneof(
      fc.constantFrom(...TRAVERSALS).map((segment) => `${segment}/x`),
      fc.constantFrom('x', '/', '%2F', '%00', '/..', '/%2e%2e').map((suffix) => `KEY${suffix}`),
      fc.constant(otherKey),
    ).map((key) => defect(`object key ${JSON.stringify(key.slice(0, 40))}`, (draft) => {
      draft.params.key = key.startsWith('KEY') ? `${draft.params.key}${key.slice(3)}` : key;
    }, [403, 404])),
  ];
}

/** Query parameters no signature covers and headers a download may carry. */
export const signedUrlOddities: fc.Arbitrary<Mutation>[] = [
  fc.constantFrom('utm_source=x', 'X-Amz-Signature=abc', 'x-signature=1', '__proto__=1', 'download').map((pair) => oddity(`extra query ${pair}`, (draft) => {
    const [name, value] = pair.split('=');
    draft.query.push([name, value ?? null]);
  })),
  fc.constantFrom('"etag"', '*', 'W/"x"').map((tag) => oddity(`If-None-Match ${tag}`, (draft) => {
    draft.headers.push(['If-None-Match', tag]);
  })),
];

/** PUT bodies that are not exactly the signed length. */
export function putBodyDefects(signedLength: number): fc.Arbitrary<Mutation>[] {
  const body = (length: number) => Buffer.alloc(length, 0x61);
  const withBody = (draft: Draft, bytes: Buffer) => {
    draft.body = { kind: 'bytes', bytes, contentType: 'application/octet-stream' };
  };
  return [
    fc.integer({ min: 0, max: signedLength - 1 }).map((length) => defect(`a ${length}-byte body for a ${signedLength}-byte URL`, (draft) => withBody(draft, body(length)), [400])),
    fc.integer({ min: signedLength + 1, max: signedLength * 3 }).map((length) => defect(`a ${length}-byte body for a ${signedLength}-byte URL`, (draft) => withBody(draft, body(length)), [413])),
    fc.constantFrom(...HUGE_LENGTHS, signedLength + 1).map(declaredLengthOnly),
    fc.double({ min: 0.01, max: 0.99, noNaN: true }).map((fraction) => defect('body cut short, connection half-closed', (draft) => {
      draft.truncate = { fraction, declareWhole: true };
    })),
    fc.integer({ min: 1, max: signedLength * 2 }).filter((length) => length !== signedLength).map((length) => defect(`a chunked ${length}-byte body`, (draft) => {
      withBody(draft, body(length));
      draft.chunked = true;
    }, [400, 413])),
  ];
}

export const putBodyOddities: fc.Arbitrary<Mutation>[] = [
  fc.constantFrom('text/plain', '', 'x', 'application/json').map((type) => oddity(`Content-Type ${JSON.stringify(type)}`, (draft) => {
    draft.contentType = type;
  })),
  fc.constantFrom('gzip', 'identity').map((coding) => oddity(`Content-Encoding ${coding}`, (draft) => {
    draft.headers.push(['Content-Encoding', coding]);
  })),
  fc.constant(oddity('chunked body', (draft) => {
    draft.chunked = true;
  })),
];
