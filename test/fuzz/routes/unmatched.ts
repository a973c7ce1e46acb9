import fc from 'fast-check';
import { buildCase, Mutation } from '../draft';
import { headerOddities } from '../mutations';
import { plainSegment } from '../values';
import { draft, RouteFuzzer } from './route-fuzzer';

const ANY_METHOD = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const UNMATCHED_PATHS = [
  '//', '/v1', '/v2/management/customers', '/v1/nope', '/v1/management', '/v1/management/applications/a/b/c',
  '/v1/downloads', '/v1/objects', '/v1/objects/', '/..%2f..%2fetc/passwd', '/v1/management/../../etc/passwd', '/%00',
  '/v1/management/customers/x/apikeys/y/z', '/v1/applications', '/v1/applications/x/stats/y', '/healthz/x', '/favicon.ico',
];

/**
 * Requests no route serves: unknown paths (404) and the routes' paths with a method they do not
 * take (405), with or without a key.
 */
export function unmatchedFuzzer(routes: RouteFuzzer[], adminKey: string): RouteFuzzer {
  const byPath = new Map<string, { target: string; methods: Set<string> }>();
  for (const route of routes) {
    const entry = byPath.get(route.path) ?? { target: route.target, methods: new Set<string>() };
    entry.methods.add(route.method);
    byPath.set(route.path, entry);
  }
  // A path one route serves may be matched by another's parameter (DELETE /v1/management/uploads/multipart
  // is DELETE /v1/management/uploads/:uploadId naming the upload `multipart`): such a pair is served.
  const servedBy = (method: string, target: string) => routes.some((route) => route.method === method && pathPattern(route.path).test(target));
  const wrongMethods = [...byPath.values()].flatMap(({ target, methods }) =>
    ANY_METHOD.filter((method) => !methods.has(method) && !servedBy(method, target)).map((method) => [method, target] as const));
  const unknownPaths = fc.oneof(fc.constantFrom(...UNMATCHED_PATHS), plainSegment.map((segment) => `/v1/${segment}/nothing`));
  const request = (method: string, target: string, expects: number[]): Mutation =>
    ({ label: `${method} ${target}: no such route`, defect: true, expects, apply: (d) => { d.method = method; d.path = target; } });
  const cases = fc.tuple(
    fc.oneof(
      fc.tuple(fc.constantFrom(...ANY_METHOD, 'OPTIONS', 'TRACE', 'PROPFIND'), unknownPaths).map(([method, target]) => request(method, target, [404])),
      fc.constantFrom(...wrongMethods).map(([method, target]) => request(method, target, [405])),
    ),
    fc.constantFrom<string | null>(null, `Bearer ${adminKey}`),
    fc.array(headerOddities, { maxLength: 1 }),
  ).map(([mutation, authorization, oddities]) => buildCase('unmatched', draft('GET', '/', {}, authorization), [...oddities, mutation]));
  return { method: '*', path: '(no route)', guard: 'none', target: '', changesData: false, cases, known: [] };
}

/** A route's path (router syntax: `:name`, `:name(.+)`) as a pattern its request targets match. */
function pathPattern(path: string): RegExp {
  const escaped = path.split(/(:\w+(?:\(\.\+\))?)/).map((part, i) => {
    if (i % 2 === 1) return part.endsWith('(.+)') ? '.+' : '[^/]+';
    return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  });
  return new RegExp(`^${escaped.join('')}$`);
}
