import { expect } from 'chai';
import fc from 'fast-check';
import SwaggerParser from '@apidevtools/swagger-parser';
import { createApplication, createCustomer, uploadSmallFile } from '../support/factories';
import type { HttpResult } from '../support/http-client';
import { startTestApp, TestApp } from '../support/test-app';

/*
 * Schema-driven: requests generated from the API description's own schemas (enums, ranges, patterns,
 * formats, lengths in characters, unique items, required and optional fields) for the main operations
 * with bodies and queries. Whatever the description allows, the service must not refuse as invalid
 * (400 VALIDATION_ERROR); it may answer 404 or 409 for records that do not exist or are taken.
 * Seeded, and bounded in runs.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_127);
const RUNS = Number(process.env.DOCUMENTED_REQUEST_RUNS ?? 40);

type Schema = Record<string, any>;
type Values = Record<string, unknown>;

/** fast-check builds strings from a pattern without lookarounds: those are checked on what it builds. */
const withoutLookarounds = (pattern: string) => pattern.replace(/\(\?<?[!=](?:[^()\\]|\\.)*\)/g, '');

const characters = (text: string) => [...text].length;

/** Values of `schema`, as JSON Schema 2020-12 reads it (the parts the description uses). */
function arbitraryOf(schema: Schema): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.type) && schema.type.includes('null')) {
    const rest = schema.type.filter((type: string) => type !== 'null');
    return fc.oneof(fc.constant(null), arbitraryOf({ ...schema, type: rest.length === 1 ? rest[0] : rest, enum: schema.enum?.filter((v: unknown) => v !== null) }));
  }
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'boolean': return fc.boolean();
    case 'integer': return fc.integer({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9 });
    case 'number': return fc.double({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9, noNaN: true, noDefaultInfinity: true });
    case 'array': {
      const items = { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, 4) };
      return schema.uniqueItems ? fc.uniqueArray(arbitraryOf(schema.items), items) : fc.array(arbitraryOf(schema.items), items);
    }
    case 'object': return objectOf(schema);
    case 'string': return stringOf(schema);
    default: throw new Error(`no generator for ${JSON.stringify(schema).slice(0, 200)}`);
  }
}

function stringOf(schema: Schema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? 64;
  let strings: fc.Arbitrary<string>;
  if (schema.format === 'date-time') {
    // The description's words for expiresAt: in the future, within the longest lifetime.
    strings = fc.integer({ min: 60, max: 365 * 24 * 60 }).map((minutes) => new Date(Date.now() + minutes * 60_000).toISOString());
  } else if (schema.format === 'date') {
    strings = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
  } else if (schema.pattern) {
    const pattern = new RegExp(schema.pattern, 'u');
    const source = new RegExp(withoutLookarounds(schema.pattern), 'u');
    // Short strings and strings at the length limit alike: the longest are cut to it, and kept when they still match.
    strings = fc.oneof(fc.stringMatching(source, { size: 'small' }), fc.stringMatching(source, { size: 'medium' }).map((text) => [...text].slice(0, max).join('')))
      .filter((text) => pattern.test(text));
  } else {
    strings = fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.min(max, 32) });
  }
  const refused = schema.not?.pattern ? new RegExp(schema.not.pattern, 'u') : undefined;
  return strings.filter((text) => characters(text) >= min && characters(text) <= max && !refused?.test(text));
}

function objectOf(schema: Schema): fc.Arbitrary<Values> {
  const properties = Object.fromEntries(Object.entries<Schema>(schema.properties ?? {}).map(([name, property]) => [name, arbitraryOf(property)]));
  return fc.record(properties, { requiredKeys: schema.required ?? [] })
    .filter((value) => Object.keys(value).length >= (schema.minProperties ?? 0))
    .filter((value) => Object.entries<string[]>(schema.dependentRequired ?? {})
      .every(([name, needed]) => value[name] === undefined || needed.every((other) => value[other] !== undefined)))
    .filter((value) => [schema, ...(schema.allOf ?? [])].every((rule: Schema) => !rule.if || !satisfies(value, rule.if) || satisfies(value, rule.then))) as fc.Arbitrary<Values>;
}

/**
 * Whether `value` satisfies a condition of `required` fields, properties' `const`, `type`, `pattern`
 * and `not`, and `anyOf` and `not` of such conditions (what the description's if/then use).
 */
function satisfies(value: Values, condition: Schema): boolean {
  if (condition.anyOf && !condition.anyOf.some((choice: Schema) => satisfies(value, choice))) return false;
  if (condition.not && satisfies(value, condition.not)) return false;
  if (!(condition.required ?? []).every((name: string) => value[name] !== undefined)) return false;
  return Object.entries<Schema>(condition.properties ?? {}).every(([name, property]) => value[name] === undefined || fieldSatisfies(value[name], property));
}

function fieldSatisfies(field: unknown, property: Schema): boolean {
  if ('const' in property && field !== property.const) return false;
  if (property.type === 'string' && typeof field !== 'string') return false;
  if (property.pattern && !new RegExp(property.pattern, 'u').test(String(field))) return false;
  return !(property.not && fieldSatisfies(field, property.not));
}

interface Operation {
  method: string;
  path: string;
  /** The key it is called with (the admin key by default). */
  key?: () => string;
  /** Path parameters: records that exist. */
  params?: () => Record<string, string>;
  /** Fields whose allowed values depend on records or on one another, as the description says in words. */
  fixed?: () => Record<string, fc.Arbitrary<unknown>>;
  /** A relation between fields the description states in words (an OpenAPI parameter list has no way to state it). */
  holds?: (values: Values) => boolean;
  /** Cleans up what a created record would otherwise leave in the way of the next run. */
  after?: (result: HttpResult) => Promise<void>;
}

describe('requests the API description allows are not refused as invalid', function () {
  this.timeout(120_000);
  let app: TestApp;
  let document: { paths: Record<string, Record<string, Schema>> };
  let applicationId: string;
  let customer: { customerId: string; apiKey: string };
  let webhookId: string;
  const version = '1.0.0';
  /** A minisign key line (what the description's first form of updateSigningKey is). */
  const signingKeys = fc.stringMatching(/^RW[Q-T][A-Za-z0-9+/]{53}$/);

  before(async () => {
    app = await startTestApp({ workers: false });
    document = (await SwaggerParser.dereference((await app.http.get('/v1/openapi.json', { key: null })).body)) as never;
    customer = await createCustomer(app, { tier: app.config.tiers[app.config.tiers.length - 1] });
    applicationId = (await createApplication(app, { customerIds: [customer.customerId] })).applicationId;
    await uploadSmallFile(app, { applicationId, version, platform: 'windows', arch: 'x64' } as never);
    webhookId = (await app.http.post('/v1/management/webhooks', { url: 'https://hooks.example.net/bds', events: ['customer.created'] })).body.data.webhookId;
  });
  after(() => app?.close());

  const operations: Operation[] = [
    {
      method: 'post', path: '/v1/management/applications',
      fixed: () => ({ customerIds: fc.constantFrom([], [customer.customerId]), updateSigningKey: fc.oneof(fc.constant(null), signingKeys) }),
    },
    {
      method: 'patch', path: '/v1/management/applications/{applicationId}', params: () => ({ applicationId }),
      fixed: () => ({ customerIds: fc.constant([]), updateSigningKey: fc.oneof(fc.constant(null), signingKeys) }),
      // A revision depends on the stored one (never below it): the requests here leave it to the text.
      holds: (b) => b.licenceRevision === undefined,
    },
    { method: 'get', path: '/v1/management/applications' },
    { method: 'get', path: '/v1/management/applications/{applicationId}/versions', params: () => ({ applicationId }) },
    {
      method: 'patch', path: '/v1/management/applications/{applicationId}/versions/{version}', params: () => ({ applicationId, version }),
      // The plan's steps, as its description says in words: the first at once, each later one higher and no earlier, within 365 days.
      fixed: () => ({
        rolloutPlan: fc.oneof(fc.constant(null), fc.record({
          steps: fc.uniqueArray(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 5 })
            .chain((percentages) => fc.uniqueArray(fc.integer({ min: 1, max: 365 }), { minLength: percentages.length - 1, maxLength: percentages.length - 1 })
              .map((days) => [0, ...days.sort((a, b) => a - b)].map((day, i) => ({ percentage: [...percentages].sort((a, b) => a - b)[i], after: `${day}d` })))),
          halt: fc.record({ minOffered: fc.integer({ min: 1, max: 1000 }), minSuccessRate: fc.double({ min: 0, max: 1, noNaN: true }), maxFailureReports: fc.integer({ min: 0, max: 1000 }) }),
        })),
      }),
      // The description's rule on the plan, applied to the plan given above.
      holds: (body) => !body.rolloutPlan || body.rolloutPercentage === undefined,
    },
    { method: 'post', path: '/v1/management/customers' },
    { method: 'patch', path: '/v1/management/customers/{customerId}', params: () => ({ customerId: customer.customerId }) },
    { method: 'get', path: '/v1/management/customers' },
    {
      method: 'post', path: '/v1/management/webhooks',
      // At most 50 endpoints: each one created is deleted again.
      after: async (result) => {
        if (result.status === 201) await app.http.request('DELETE', `/v1/management/webhooks/${result.body.data.webhookId}`);
      },
    },
    { method: 'patch', path: '/v1/management/webhooks/{webhookId}', params: () => ({ webhookId }) },
    { method: 'get', path: '/v1/management/webhooks' },
    { method: 'get', path: '/v1/applications/{applicationId}/stats', params: () => ({ applicationId }), holds: (q) => !q.from || !q.to || String(q.from) <= String(q.to) },
    { method: 'get', path: '/v1/activity' },
    { method: 'get', path: '/v1/management/audit', holds: (q) => !q.from || !q.to || String(q.from) <= String(q.to) },
    { method: 'get', path: '/v1/downloads/releases', key: () => customer.apiKey },
    {
      method: 'get', path: '/v1/downloads/url', key: () => customer.apiKey,
      // The description's words: channel with version=latest only, fileId with an exact version and without platform or arch.
      holds: (q) => (q.version === 'latest' ? q.fileId === undefined : q.channel === undefined) && (q.fileId === undefined || (q.platform === undefined && q.arch === undefined)),
    },
    { method: 'post', path: '/v1/downloads/share', key: () => customer.apiKey },
    { method: 'post', path: '/v1/management/upload/large-url' },
    { method: 'post', path: '/v1/management/uploads/multipart' },
    {
      method: 'post', path: '/v1/management/apikeys', fixed: () => ({ applicationIds: fc.constant([applicationId]) }),
      holds: (b) => !(Array.isArray(b.applicationIds) && Array.isArray(b.scopes) && b.scopes.includes('admin')),
    },
  ];

  for (const operation of operations) {
    it(`${operation.method.toUpperCase()} ${operation.path}`, async () => {
      const described = document.paths[operation.path][operation.method];
      const parameters = (described.parameters ?? []) as Array<{ in: string; name: string; required?: boolean; schema: Schema }>;
      const querySchema: Schema = {
        type: 'object',
        properties: Object.fromEntries(parameters.filter((p) => p.in === 'query').map((p) => [p.name, p.schema])),
        required: parameters.filter((p) => p.in === 'query' && p.required).map((p) => p.name),
      };
      const header = parameters.find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
      const bodySchema = described.requestBody?.content['application/json']?.schema as Schema | undefined;
      const fixed = operation.fixed?.() ?? {};
      const withFixed = (schema: Schema) => objectOf({ ...schema, properties: Object.fromEntries(Object.entries<Schema>(schema.properties ?? {}).filter(([name]) => !(name in fixed))) })
        .chain((values) => fc.record(Object.fromEntries(Object.keys(fixed).filter((name) => name in (schema.properties ?? {})).map((name) => [name, fc.option(fixed[name], { nil: undefined })])))
          .map((extra) => ({ ...values, ...Object.fromEntries(Object.entries(extra).filter(([, v]) => v !== undefined)) })));
      const requests = fc.record({
        query: withFixed(querySchema),
        body: bodySchema ? withFixed(bodySchema) : fc.constant(undefined),
        key: header ? fc.option(arbitraryOf(header.schema) as fc.Arbitrary<string>, { nil: undefined }) : fc.constant(undefined),
      }).filter(({ query, body }) => (operation.holds?.({ ...query, ...(body as Values) }) ?? true) && (!bodySchema?.minProperties || Object.keys(body as Values).length >= bodySchema.minProperties));

      await fc.assert(fc.asyncProperty(requests, async ({ query, body, key }) => {
        let path = operation.path;
        for (const [name, value] of Object.entries(operation.params?.() ?? {})) path = path.replace(`{${name}}`, encodeURIComponent(value));
        const search = new URLSearchParams(Object.entries(query).map(([name, value]): [string, string] => [name, String(value)])).toString();
        const result = await app.http.request(operation.method.toUpperCase(), search ? `${path}?${search}` : path, {
          key: operation.key?.(),
          ...(body === undefined ? {} : { json: body }),
          ...(key === undefined ? {} : { headers: { 'Idempotency-Key': key } }),
        });
        await operation.after?.(result);
        const refusedAsInvalid = result.status === 400 && result.body?.error?.code === 'VALIDATION_ERROR';
        expect(refusedAsInvalid, `${operation.method.toUpperCase()} ${path}?${search} ${JSON.stringify(body)} -> ${JSON.stringify(result.body?.error)}`).to.equal(false);
      }), { seed: SEED, numRuns: RUNS, endOnFailure: true });
    });
  }
});
