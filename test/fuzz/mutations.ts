import fc from 'fast-check';
import { defect, Draft, editTarget, Mutation, oddity } from './draft';
import {
  base64url,
  encoded,
  HUGE_LENGTHS,
  MALFORMED_JSON,
  NOT_AN_OBJECT,
  PROTOTYPE_KEYS,
  UNUSUAL_CHARACTERS,
} from './values';

/*
 * Mutations every route of a kind shares: the HTTP framing, the headers, the key, the query string
 * and JSON bodies. Route-specific ones (path parameters, field values, multipart forms, signed URLs)
 * are built from these in routes/.
 */

const REFUSED_BY_VALIDATION = [400];
const UNAUTHENTICATED = [401];
const OTHER_KIND = [403];
const TOO_LARGE = [413];
const UNSUPPORTED = [415];

// ---------------------------------------------------------------------------------------------
// HTTP framing and headers: wrong for any route.

const setHeader = (draft: Draft, name: string, value: string) => {
  draft.headers.push([name, value]);
};

/** Inserts `text` inside the target, never at its end (a space there is only a lenient separator). */
const insertInTarget = (draft: Draft, text: string, at: number) =>
  editTarget(draft, (target) => {
    const where = 1 + (at % Math.max(1, target.length - 1));
    return `${target.slice(0, where)}${text}${target.slice(where)}`;
  });

/** A header set by a defect replaces any the draft has already: a second one could undo it. */
const replaceHeader = (draft: Draft, name: string, value: string) => {
  draft.headers = draft.headers.filter(([existing]) => existing.toLowerCase() !== name.toLowerCase());
  draft.headers.push([name, value]);
};

/** Refused at the HTTP level, and the connection closed: a body still on its way is not read. */
const protocolDefect = (label: string, apply: (draft: Draft) => void, expects: number[]): Mutation =>
  ({ ...defect(label, apply, expects), closesConnection: true });

export const rawByteInTarget = (byte: string, at: number): Mutation =>
  protocolDefect(`raw byte ${JSON.stringify(byte)} in the request target`, (draft) => {
    // A one-character target (`/`) has no inside: after it, a space would only end the target, so
    // one more character keeps the byte within it.
    if (draft.path === '/' && draft.query.length === 0) editTarget(draft, (target) => `${target}${byte}x`);
    else insertInTarget(draft, byte, at);
  }, [400]);
export const oversizeHeader = (size: number): Mutation =>
  protocolDefect(`a ${size}-byte header`, (draft) => setHeader(draft, 'X-Trace', 'a'.repeat(size)), [431]);
export const unmetExpectation = (expectation: string): Mutation =>
  protocolDefect(`Expect: ${expectation}`, (draft) => replaceHeader(draft, 'Expect', expectation), [417]);
export const noHost = protocolDefect('no Host header', (draft) => {
  draft.omitHost = true;
}, [400]);

/** Requests that are not valid HTTP/1.1, or that HTTP says to refuse: 400, 417 or 431 whatever the route. */
export const protocolDefects: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(fc.constantFrom('\u0000', '\u0001', '\u001b', '\u007f', '\u00ff', '\r', '\n', ' '), fc.nat({ max: 40 }))
    .map(([byte, at]) => rawByteInTarget(byte, at)),
  fc.constantFrom('\u0000', '\u0001', '\u001b', '\r', '\u007f')
    .map((byte) => protocolDefect(`control byte ${JSON.stringify(byte)} in a header value`, (draft) => setHeader(draft, 'X-Trace', `a${byte}b`), [400])),
  fc.constantFrom('X Trace', 'X-Trace ', '(x)', 'X-Tr\u00e9ce', 'X@Trace', '')
    .map((name) => protocolDefect(`invalid header name ${JSON.stringify(name)}`, (draft) => setHeader(draft, name, 'x'), [400])),
  fc.constantFrom(20_000, 70_000).map(oversizeHeader),
  fc.constant(protocolDefect('two different Content-Length headers', (draft) => {
    draft.declaredLength ??= '0';
    setHeader(draft, 'Content-Length', '1');
  }, [400])),
  fc.constantFrom('chunked', 'gzip, chunked', 'chunked, identity', 'foo', 'identity')
    .map((coding) => protocolDefect(`Transfer-Encoding ${coding} beside Content-Length`, (draft) => {
      draft.declaredLength ??= '0';
      setHeader(draft, 'Transfer-Encoding', coding);
    }, [400])),
  fc.constantFrom('nonsense', '100-continuation', 'x=1').map(unmetExpectation),
  fc.constant(noHost),
);

/** One request of each kind the HTTP parser or HTTP itself refuses, for every route. */
export const protocolKnownCases: Mutation[][] = [[rawByteInTarget('\u0000', 3)], [oversizeHeader(20_000)], [unmetExpectation('nonsense')], [noHost]];

/** Headers a client may send that change nothing about what is asked, and printable bytes URLs should escape. */
export const headerOddities: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(fc.constantFrom('"', '<', '>', '\\', '^', '`', '{', '|', '}', '[', ']'), fc.nat({ max: 40 }))
    .map(([byte, at]) => oddity(`unescaped ${byte} in the request target`, (draft) => insertInTarget(draft, byte, at))),
  fc.constantFrom('', ' ', 'x'.repeat(65), 'x'.repeat(5000), 'a b', '../../x', '\u00ff', '<script>', 'id\t1')
    .map((id) => oddity(`X-Request-Id ${JSON.stringify(id.slice(0, 20))}`, (draft) => setHeader(draft, 'X-Request-Id', id))),
  fc.constantFrom('text/html', '*/*;q=0', 'application/xml', 'application/json;q=0', '\u00ff', '')
    .map((accept) => oddity(`Accept ${accept}`, (draft) => setHeader(draft, 'Accept', accept))),
  fc.constantFrom('gzip', 'br', 'deflate', 'identity;q=0', '*;q=0')
    .map((coding) => oddity(`Accept-Encoding ${coding}`, (draft) => setHeader(draft, 'Accept-Encoding', coding))),
  fc.constantFrom('', 'x'.repeat(8000), '\u00ff\u00fe', 'curl/8 (\u00e9)')
    .map((agent) => oddity('unusual User-Agent', (draft) => setHeader(draft, 'User-Agent', agent))),
  fc.constantFrom('1.2.3.4', 'garbage', '::1, 10.0.0.1, x', '999.999.999.999', '')
    .map((forwarded) => oddity(`X-Forwarded-For ${forwarded}`, (draft) => setHeader(draft, 'X-Forwarded-For', forwarded))),
  fc.constantFrom('bytes=0-0', 'bytes=-1', 'bytes=5-2', 'bytes=abc', 'bytes=0-99999999999999999999', 'bytes=0-1,2-3', 'items=0-1', 'bytes=')
    .map((range) => oddity(`Range ${range}`, (draft) => setHeader(draft, 'Range', range))),
  fc.constant(oddity('Expect: 100-continue', (draft) => setHeader(draft, 'Expect', '100-continue'))),
  fc.constantFrom('a=b', '__proto__=x; constructor=y', '\u00ff=\u00ff', '=;;=')
    .map((cookie) => oddity('unusual Cookie', (draft) => setHeader(draft, 'Cookie', cookie))),
  fc.constant(oddity('the same header repeated', (draft) => {
    setHeader(draft, 'X-Trace', '1');
    setHeader(draft, 'X-Trace', '2');
  })),
);

// ---------------------------------------------------------------------------------------------
// Keys.

export interface KeyRing {
  admin: string;
  /** The metrics token (METRICS_TOKEN). */
  metrics: string;
  /** An active customer with access to everything the routes aim at. */
  customer: string;
  /** The customer id `customer` belongs to, to forge keys of a real customer. */
  customerId: string;
  inactive: string;
  revoked: string;
  /** A scoped admin key, revoked. */
  adminRevoked: string;
  /** A scoped admin key that no route admits: limited to an application no request names, without the admin scope. */
  adminElsewhere: string;
}

const bearer = (key: string) => `Bearer ${key}`;

/** The credential of a guard, and one of another kind. */
const credentialsOf = (guard: KeyedGuard, keys: KeyRing) => ({
  admin: { valid: keys.admin, otherKind: keys.customer },
  customer: { valid: keys.customer, otherKind: keys.admin },
  metrics: { valid: keys.metrics, otherKind: keys.admin },
  // Either kind of key is admitted: there is no other kind to refuse.
  key: { valid: keys.customer, otherKind: null },
})[guard];

/** The guards that ask for a credential. */
export type KeyedGuard = 'admin' | 'customer' | 'key' | 'metrics';

/** Every way of not presenting the key a route needs. */
export function keyDefects(guard: KeyedGuard, keys: KeyRing): fc.Arbitrary<Mutation> {
  const { valid, otherKind } = credentialsOf(guard, keys);
  // API keys are no credential at all where the metrics token is asked for.
  const anotherKey = guard === 'metrics' ? UNAUTHENTICATED : OTHER_KIND;
  const withKey = (label: string, authorization: string | null, expects?: number[]) =>
    defect(label, (draft) => {
      draft.authorization = authorization;
      draft.headers = draft.headers.filter(([name]) => name.toLowerCase() !== 'authorization');
    }, expects);
  // A key of the other kind, or any valid scoped admin key: refused unless the route admits every key.
  const otherKinds = otherKind === null ? [] : [
    fc.constant(withKey('a key of the other kind', bearer(otherKind), anotherKey)),
    fc.constant(withKey(guard === 'admin' ? 'a scoped admin key without the scope or the application' : 'a scoped admin key', bearer(keys.adminElsewhere), OTHER_KIND)),
  ];
  return fc.oneof(
    fc.constant(withKey('no key', null, UNAUTHENTICATED)),
    ...otherKinds,
    fc.constant(withKey('a revoked key', bearer(keys.revoked), UNAUTHENTICATED)),
    fc.constant(withKey("an inactive customer's key", bearer(keys.inactive), anotherKey)),
    base64url(43).map((secret) => withKey('an unknown key of a real customer', bearer(`${keys.customerId}.${secret}`), UNAUTHENTICATED)),
    base64url(32).map((key) => withKey('an unknown admin-shaped key', bearer(`adm_${key}`), UNAUTHENTICATED)),
    base64url(43).map((key) => withKey('an unknown scoped admin key', bearer(`adm_${key}`), UNAUTHENTICATED)),
    fc.constant(withKey('a revoked scoped admin key', bearer(keys.adminRevoked), UNAUTHENTICATED)),
    fc.constantFrom(
      '', 'Bearer', 'Bearer ', `Bearer  ${valid}`, valid, `Token ${valid}`, `Basic ${Buffer.from(`admin:${valid}`).toString('base64')}`,
      bearer(`${valid} x`), bearer(valid.slice(0, -1)), bearer(`${valid}x`), bearer(valid.toUpperCase()), bearer('x'.repeat(513)),
      bearer(`${valid}\u00e9`), bearer('__proto__'), bearer('constructor.prototype'), `Bearer x\r\nX-Injected: ${valid}`,
    ).map((authorization) => withKey('a malformed Authorization header', authorization, UNAUTHENTICATED)),
    fc.constant(defect('a second Authorization header after a wrong one', (draft) => {
      draft.authorization = bearer('wrong');
      draft.headers.push(['Authorization', bearer(valid)]);
    }, UNAUTHENTICATED)),
  );
}

/** Legal spellings of the right key. */
export function keyOddities(guard: KeyedGuard, keys: KeyRing): fc.Arbitrary<Mutation> {
  const { valid } = credentialsOf(guard, keys);
  return fc.constantFrom(`bearer ${valid}`, `BEARER ${valid}`).map((authorization) => oddity('the scheme in another case', (draft) => {
    draft.authorization = authorization;
  }));
}

// ---------------------------------------------------------------------------------------------
// Query strings.

const UNKNOWN_PARAMETER_NAMES = ['bogus', ...PROTOTYPE_KEYS, 'page[]', 'a[b]', 'X-Signature', '%00', '%E2%80%A8', '%ff', 'x'.repeat(300)];
const PARAMETER_VALUES: Array<string | null> = ['1', '', null, '%00', '%0D%0A', 'x'.repeat(2000), '%ff', '__proto__'];

/** A parameter the route does not know: refused where the README says so (every /v1 route with a key). */
export function unknownParameter(name: string, value: string | null, refused: boolean): Mutation {
  return (refused ? defect : oddity)(`unknown query parameter ${name.slice(0, 20)}`, (draft) => {
    draft.query.push([name, value]);
  }, refused ? REFUSED_BY_VALIDATION : undefined);
}

export function unknownQueryParameter(refused: boolean, known: readonly string[] = []): fc.Arbitrary<Mutation> {
  return fc.tuple(fc.constantFrom(...UNKNOWN_PARAMETER_NAMES.filter((name) => !known.includes(name))), fc.constantFrom(...PARAMETER_VALUES))
    .map(([name, value]) => unknownParameter(name, value, refused));
}

/** Query parameters the route knows, with values of their own (some, such as cursors, have no valid value to make up). */
export type QueryRules = Record<string, { valid?: fc.Arbitrary<string>; invalid: fc.Arbitrary<string> }>;

const setQuery = (draft: Draft, name: string, value: string) => {
  draft.query = draft.query.filter(([existing]) => existing !== name);
  draft.query.push([name, value]);
};

export function queryDefects(rules: QueryRules, expects: number[] = [400, 404]): fc.Arbitrary<Mutation>[] {
  const names = Object.keys(rules);
  if (names.length === 0) return [];
  const defects = [
    fc.oneof(...names.map((name) => rules[name].invalid.map((value) => defect(`query ${name}=${JSON.stringify(value.slice(0, 30))}`, (draft) => setQuery(draft, name, encoded(value)), expects)))),
    fc.constantFrom(...names).map((name) => defect(`query ${name} given twice`, (draft) => {
      const value = draft.query.find(([existing]) => existing === name)?.[1] ?? '';
      draft.query.push([name, value], [name, value]);
    }, REFUSED_BY_VALIDATION)),
  ];
  return defects;
}

export function queryOddities(rules: QueryRules): fc.Arbitrary<Mutation>[] {
  const withValid = Object.keys(rules).filter((name) => rules[name].valid);
  const odd = [
    fc.constantFrom('', '&', '&&').map((separators) => oddity(`empty query parameters "?${separators}"`, (draft) => {
      editTarget(draft, (target) => `${target}${target.includes('?') ? '&' : '?'}${separators}`);
    })),
    fc.constant(oddity('a fragment in the target', (draft) => {
      editTarget(draft, (target) => `${target}#fragment`);
    })),
  ];
  if (withValid.length === 0) return odd;
  const valid = (name: string) => rules[name].valid as fc.Arbitrary<string>;
  return [
    ...odd,
    fc.oneof(...withValid.map((name) => valid(name).map((value) => oddity(`query ${name}=${value.slice(0, 30)}`, (draft) => setQuery(draft, name, encoded(value)))))),
    fc.oneof(...withValid.map((name) => valid(name).map((value) => oddity(`query ${name} with its name percent-encoded`, (draft) => {
      draft.query = draft.query.filter(([existing]) => existing !== name);
      draft.query.push([[...name].map((c) => `%${c.charCodeAt(0).toString(16)}`).join(''), encoded(value)]);
    })))),
  ];
}

// ---------------------------------------------------------------------------------------------
// Path parameters.

/** A path parameter replaced: every value here names nothing that exists. */
export function pathParameterDefects(name: string, values: fc.Arbitrary<string>, expects = [400, 404, 405]): fc.Arbitrary<Mutation> {
  return values.map((value) => defect(`path ${name} ${JSON.stringify(value.slice(0, 40))}`, (draft) => {
    draft.params[name] = value;
  }, expects));
}

// ---------------------------------------------------------------------------------------------
// JSON bodies.

/** A JSON field: raw JSON values that are valid, invalid, or unusual (legal or open to rules). */
export interface FieldRule {
  valid: fc.Arbitrary<string>;
  invalid: fc.Arbitrary<string>;
  unusual?: fc.Arbitrary<string>;
  required?: boolean;
  /** Statuses an invalid value is refused with (400 unless it names something missing). */
  expects?: number[];
}

export type FieldRules = Record<string, FieldRule>;

const setField = (draft: Draft, name: string, value: string) => {
  if (draft.body.kind !== 'json') return;
  draft.body.fields = draft.body.fields.filter(([existing]) => existing !== name);
  draft.body.fields.push([name, value]);
};

const UNKNOWN_FIELD_NAMES = ['bogus', ...PROTOTYPE_KEYS, 'isActive', 'createdAt', 'deletedAt', 'status', 'checksum', 'apiKey', '', ' ', 'name ', 'x'.repeat(300), '\u0000'];
const UNKNOWN_FIELD_VALUES = ['1', 'null', '{}', '{"polluted":true}', '"x"', '[]'];

const JSON_CONTENT_TYPES_REFUSED = [
  'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/jsonp',
  'json', 'application', 'application/json, text/plain', '', 'text/json', 'application/octet-stream', 'application/json/x',
];
const JSON_CONTENT_TYPES_ACCEPTED = ['application/json; charset=utf-8', 'application/json;charset=UTF-8', 'Application/JSON', 'application/merge-patch+json', 'application/vnd.api+json'];
const CONTENT_ENCODINGS_REFUSED = ['gzip', 'br', 'deflate', 'x-gzip', 'compress', 'zstd', 'bogus', 'gzip, gzip', 'GZIP', 'identity, gzip'];
/** A gzip header followed by bytes that do not inflate. */
const CORRUPT_GZIP = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xff, 0xff, 0x00, 0x13, 0x37]);
const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

export const jsonField = (name: string, value: string, expects: number[] = REFUSED_BY_VALIDATION): Mutation =>
  defect(`field ${name} = ${value.slice(0, 40)}`, (draft) => {
    setField(draft, name, value);
    draft.pinnedFields = [...(draft.pinnedFields ?? []), name];
  }, expects);

/** A Content-Type the JSON routes do not read (`null`: none at all). */
export const jsonContentType = (type: string | null): Mutation => defect(`Content-Type ${type === null ? '(none)' : JSON.stringify(type)}`, (draft) => {
  draft.contentType = type;
}, UNSUPPORTED);

/** A JSON type the routes admit, on a body that is not JSON: it must be parsed, and refused. */
export const malformedJsonOfType = (type: string): Mutation => defect(`malformed JSON sent as ${type}`, (draft) => {
  draft.contentType = type;
  draft.bodyText = Buffer.from('{,}');
}, [400, 415]);

export const contentEncoding = (coding: string): Mutation =>
  defect(`Content-Encoding ${coding} on a plain body`, (draft) => replaceHeader(draft, 'Content-Encoding', coding), [400, 415]);

export const corruptGzip = defect('Content-Encoding gzip on bytes that do not inflate', (draft) => {
  draft.bodyText = CORRUPT_GZIP;
  replaceHeader(draft, 'Content-Encoding', 'gzip');
}, [400, 415]);

/** Declares a body and sends none: a length past the route's limit is refused at once, before any body. */
export const declaredLengthOnly = (length: number): Mutation => defect(`Content-Length ${length} and no body`, (draft) => {
  draft.declaredLength = String(length);
  draft.omitBody = true;
}, TOO_LARGE);

/** What a JSON body can get wrong, for a route whose fields follow `rules`. */
export function jsonBodyDefects(rules: FieldRules, options: { emptyIsRefused: boolean }): fc.Arbitrary<Mutation>[] {
  const names = Object.keys(rules);
  const required = names.filter((name) => rules[name].required);
  const setText = (draft: Draft, text: string | Buffer) => {
    draft.bodyText = Buffer.isBuffer(text) ? text : Buffer.from(text);
  };
  const defects: fc.Arbitrary<Mutation>[] = [
    fc.constantFrom(...MALFORMED_JSON).map((text) => defect(`malformed JSON ${JSON.stringify(text.slice(0, 20))}`, (draft) => setText(draft, text), REFUSED_BY_VALIDATION)),
    fc.constantFrom(...NOT_AN_OBJECT).map((text) => defect(`a JSON body that is not an object: ${text.slice(0, 12)}`, (draft) => setText(draft, text), REFUSED_BY_VALIDATION)),
    fc.double({ min: 0.01, max: 0.99, noNaN: true }).map((fraction) => defect('JSON cut short (length as sent)', (draft) => {
      draft.truncate = { fraction, declareWhole: false };
    }, REFUSED_BY_VALIDATION)),
    fc.double({ min: 0.01, max: 0.99, noNaN: true }).map((fraction) => defect('JSON cut short, connection half-closed', (draft) => {
      draft.truncate = { fraction, declareWhole: true };
    })),
    fc.tuple(fc.constantFrom(...UNKNOWN_FIELD_NAMES.filter((name) => !names.includes(name))), fc.constantFrom(...UNKNOWN_FIELD_VALUES))
      .map(([name, value]) => defect(`unknown field ${JSON.stringify(name.slice(0, 20))}`, (draft) => setField(draft, name, value), REFUSED_BY_VALIDATION)),
    fc.constantFrom(...JSON_CONTENT_TYPES_REFUSED, null).map(jsonContentType),
    fc.constantFrom(...JSON_CONTENT_TYPES_ACCEPTED.filter((type) => type.includes('+json'))).map(malformedJsonOfType),
    fc.constantFrom(...CONTENT_ENCODINGS_REFUSED).map(contentEncoding),
    fc.constant(corruptGzip),
    fc.constantFrom(...HUGE_LENGTHS, JSON_BODY_LIMIT_BYTES + 1).map(declaredLengthOnly),
    fc.constant(defect('a body over 1 MB', (draft) => {
      setField(draft, names[0] ?? 'padding', JSON.stringify('x'.repeat(JSON_BODY_LIMIT_BYTES + 10)));
    }, TOO_LARGE)),
  ];
  if (names.length > 0) {
    defects.push(fc.oneof(...names.map((name) => rules[name].invalid.map((value) => jsonField(name, value, rules[name].expects)))));
  }
  if (required.length > 0) {
    defects.push(fc.constantFrom(...required).map((name) => defect(`required field ${name} missing`, (draft) => {
      if (draft.body.kind === 'json') draft.body.fields = draft.body.fields.filter(([existing]) => existing !== name);
    }, REFUSED_BY_VALIDATION)));
  }
  if (options.emptyIsRefused) {
    defects.push(fc.constant(defect('an empty object', (draft) => {
      if (draft.body.kind === 'json') draft.body.fields = [];
    }, REFUSED_BY_VALIDATION)));
  }
  return defects;
}

/** What a JSON body may do differently and still mean the same, or say something legal but odd. */
export function jsonBodyOddities(rules: FieldRules): fc.Arbitrary<Mutation>[] {
  const names = Object.keys(rules);
  const oddities: fc.Arbitrary<Mutation>[] = [
    fc.constantFrom(...JSON_CONTENT_TYPES_ACCEPTED).map((type) => oddity(`Content-Type ${type}`, (draft) => {
      draft.contentType = type;
    })),
    fc.constant(oddity('Content-Encoding identity', (draft) => setHeader(draft, 'Content-Encoding', 'identity'))),
    fc.constant(oddity('chunked body', (draft) => {
      draft.chunked = true;
    })),
    fc.constantFrom(' ', '\n', '\t', '\r\n', '\ufeff').map((space) => oddity(`${JSON.stringify(space)} around the JSON`, (draft) => {
      draft.jsonPadding = space;
    })),
    fc.constantFrom(Buffer.from([0xff]), Buffer.from([0xc0, 0xaf]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xe2, 0x80]), Buffer.from([0xf8, 0x88, 0x80, 0x80, 0x80]))
      .map((bytes) => oddity('invalid UTF-8 inside a string', (draft) => {
        draft.invalidUtf8 = bytes;
      })),
  ];
  if (names.length === 0) return oddities;
  oddities.push(fc.oneof(...names.map((name) => rules[name].valid.map((value) => oddity(`field ${name} = ${value.slice(0, 40)}`, (draft) => setField(draft, name, value))))));
  oddities.push(fc.oneof(...names.map((name) => rules[name].valid.map((value) => oddity(`field ${name} given twice`, (draft) => {
    if (draft.body.kind === 'json') draft.body.fields.unshift([name, value]);
  })))));
  const unusual = names.filter((name) => rules[name].unusual);
  if (unusual.length > 0) {
    oddities.push(fc.oneof(...unusual.map((name) => (rules[name].unusual as fc.Arbitrary<string>).map((value) => oddity(`field ${name} = ${value.slice(0, 40)}`, (draft) => setField(draft, name, value))))));
  }
  return oddities;
}

/** A body on a request whose route reads none: ignored, so not wrong. */
export const unreadBodyOddities: fc.Arbitrary<Mutation> = fc.constantFrom(
  ['application/json', '{"bogus":1}'], ['text/plain', 'hello'], ['application/octet-stream', '\u0000\u00ff'],
).map(([type, text]) => oddity(`a ${type} body the route does not read`, (draft) => {
  draft.contentType = type;
  draft.bodyText = Buffer.from(text, 'latin1');
}));

/** Characters for generated text: some ordinary, some not. */
export const textUnits = fc.constantFrom('a', 'Z', '0', '-', '_', '.', ' ', ...UNUSUAL_CHARACTERS);
