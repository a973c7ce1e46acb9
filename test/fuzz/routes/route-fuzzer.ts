import fc from 'fast-check';
import type { Guard } from '../../../gateway/http/context';
import { buildCase, Draft, DraftBody, FuzzCase, Mutation, oddity } from '../draft';
import {
  FieldRules,
  headerOddities,
  jsonBodyDefects,
  jsonBodyOddities,
  KeyedGuard,
  KeyRing,
  keyDefects,
  keyOddities,
  protocolDefects,
  protocolKnownCases,
  queryDefects,
  queryOddities,
  QueryRules,
  unknownParameter,
  unknownQueryParameter,
} from '../mutations';

/**
 * One route's generated requests: its valid request against the fixture, with mutations that make
 * it wrong (defects) or merely unusual (oddities). Every case of a route that can change data
 * carries at least one defect.
 */
export interface RouteFuzzer {
  method: string;
  path: string;
  /** Who may call the route: the key defects generated for it follow from this. */
  guard: Guard;
  /** The route's valid request target (path with the fixture's values, no query). */
  target: string;
  changesData: boolean;
  cases: fc.Arbitrary<FuzzCase>;
  /** Failures seen before, tried first on every run. */
  known: FuzzCase[];
}

/** A route's defects, oddities and known failures. */
export interface Mutations {
  guard: Guard;
  defects: fc.Arbitrary<Mutation>[];
  oddities: fc.Arbitrary<Mutation>[];
  known?: Mutation[][];
}

export interface RouteSpec extends Mutations {
  method: string;
  path: string;
  changesData: boolean;
  /** The valid request; a function when each case needs names of its own (a new id, a new version). */
  base: Draft | (() => Draft);
}

const MAX_DEFECTS = 2;
const MAX_ODDITIES = 2;

/** A GET route answers HEAD too, with the same status and no body. */
const headInsteadOfGet = oddity('HEAD instead of GET', (draft) => {
  draft.method = 'HEAD';
});

export function fuzzer(spec: RouteSpec): RouteFuzzer {
  const key = `${spec.method} ${spec.path}`;
  const base = typeof spec.base === 'function' ? spec.base : () => spec.base as Draft;
  const oddityKinds = spec.method === 'GET' ? [...spec.oddities, fc.constant(headInsteadOfGet)] : spec.oddities;
  const defects = fc.array(fc.oneof(...spec.defects), { minLength: spec.changesData ? 1 : 0, maxLength: MAX_DEFECTS });
  const oddities = fc.array(fc.oneof(...oddityKinds), { maxLength: MAX_ODDITIES });
  return {
    method: spec.method,
    path: spec.path,
    guard: spec.guard,
    target: buildCase(key, { ...base(), query: [] }, []).request.target,
    changesData: spec.changesData,
    // Oddities first: buildCase applies defects last either way.
    cases: fc.tuple(defects, oddities).map(([d, o]) => buildCase(key, base(), [...o, ...d])),
    known: [...protocolKnownCases, ...(spec.known ?? [])].map((mutations) => buildCase(key, base(), mutations)),
  };
}

export const draft = (method: string, path: string, params: Record<string, string>, authorization: string | null, body: DraftBody = { kind: 'none' }, query: Draft['query'] = []): Draft =>
  ({ method, path, params, query, authorization, headers: [], body });

export const json = (fieldValues: Record<string, string>): DraftBody => ({ kind: 'json', fields: Object.entries(fieldValues) });

export const values = (...list: string[]) => fc.constantFrom(...list);

/** What every route with a key shares: the framing, the key, unknown and malformed query parameters. */
export function keyed(guard: KeyedGuard, keys: KeyRing, query: QueryRules = {}): Mutations {
  return {
    guard,
    defects: [protocolDefects, keyDefects(guard, keys), unknownQueryParameter(true, Object.keys(query)), ...queryDefects(query)],
    oddities: [headerOddities, keyOddities(guard, keys), ...queryOddities(query)],
    // The README refuses unknown query parameters on every route; some routes once accepted them,
    // and a query of exactly `__proto__` read as no query at all.
    known: [[unknownParameter('bogus', '1', true)], [unknownParameter('__proto__', null, true)]],
  };
}

/** What every route without a key shares: the framing and the headers. */
export function unkeyed(defects: fc.Arbitrary<Mutation>[], oddities: fc.Arbitrary<Mutation>[], known: Mutation[][] = []): Mutations {
  return { guard: 'none', defects: [protocolDefects, ...defects], oddities: [headerOddities, ...oddities], known };
}

export const plus = (a: Mutations, defects: fc.Arbitrary<Mutation>[], oddities: fc.Arbitrary<Mutation>[] = [], known: Mutation[][] = []): Mutations =>
  ({ guard: a.guard, defects: [...a.defects, ...defects], oddities: [...a.oddities, ...oddities], known: [...(a.known ?? []), ...known] });

/** The defects and oddities of a JSON body whose fields follow `rules`. */
export const jsonBody = (rules: FieldRules, options: { emptyIsRefused: boolean }) => ({
  defects: jsonBodyDefects(rules, options),
  oddities: jsonBodyOddities(rules),
});

/** Sets JSON fields of a draft, replacing those already there. */
export function setJson(d: Draft, fieldValues: Record<string, string>): void {
  if (d.body.kind !== 'json') return;
  const names = Object.keys(fieldValues);
  d.body.fields = [...d.body.fields.filter(([name]) => !names.includes(name)), ...Object.entries(fieldValues)];
}
