import { expect } from 'chai';
import { z } from 'zod';
import { describeApi, openApiPath } from '../../gateway/pipeline/api-description';
import { route } from '../../gateway/http/route';

/** How a route of the table becomes part of the API description, with nothing written for it by hand. */
describe('API description', () => {
  const thing = z.object({ thingId: z.string(), size: z.number().int(), state: z.enum(['new', 'old']).nullable() });
  const document = describeApi([
    route({
      method: 'post', path: '/v1/things/:thingId', operationId: 'makeThing', guard: 'admin', scope: 'manage', summary: 'Make a thing',
      audit: { action: 'thing.created', target: { from: 'params', field: 'thingId' } },
      params: z.object({ thingId: z.string().regex(/^[a-z]+$/) }),
      query: z.object({ dryRun: z.enum(['true', 'false']).optional() }).strict(),
      body: z.object({ size: z.number().int().min(1) }).strict(),
      status: [201, 200], failures: [410], response: thing,
      handle: () => ({ thingId: 'a', size: 1, state: null }),
    }),
  ], { serverUrl: 'https://api.example', version: '1.2.3' });
  const operation = document.paths?.['/v1/things/{thingId}']?.post as Record<string, any>;

  it('turns a declared route into an operation: path, summary, guard, parameters, body', () => {
    expect(operation.summary).to.equal('Make a thing');
    expect(operation.security).to.deep.equal([{ adminKey: ['manage'] }]);
    expect(operation.parameters).to.deep.include({ name: 'thingId', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-z]+$' } });
    expect(operation.parameters).to.deep.include({ name: 'dryRun', in: 'query', required: false, schema: { type: 'string', enum: ['true', 'false'] } });
    expect(operation.requestBody).to.deep.equal({
      required: true,
      content: { 'application/json': { schema: { type: 'object', properties: { size: { type: 'integer', minimum: 1 } }, required: ['size'], additionalProperties: false } } },
    });
  });

  it('wraps every declared success status in the envelope and lists the failures the declaration implies', () => {
    const created = operation.responses['201'].content['application/json'].schema;
    expect(created.properties.success).to.deep.equal({ type: 'boolean', enum: [true] });
    expect(created.properties.data.required).to.deep.equal(['thingId', 'size', 'state']);
    expect(created.properties.data.properties.state).to.deep.equal({ type: ['string', 'null'], enum: ['new', 'old', null] });
    expect(operation.responses['200'].content['application/json'].schema).to.deep.equal(created);
    expect(Object.keys(operation.responses).sort()).to.deep.equal(['200', '201', '400', '401', '403', '404', '409', '410', '413', '415', '422', '429', '503', 'default']);
    expect(operation.responses['403'].content['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/Error403' });
    expect(operation.responses['410'].content['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/Error410' });
    expect(operation.responses.default.content['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/ErrorOfAnyRoute' });
  });

  it('describes the headers the route sets: rate limits, Retry-After on 429, Idempotent-Replayed on answers a repeat may replay', () => {
    const headers = (status: string) => Object.keys(operation.responses[status].headers ?? {}).sort();
    expect(headers('201')).to.deep.equal(['Idempotent-Replayed', 'RateLimit', 'RateLimit-Policy']);
    expect(headers('410')).to.deep.equal(['Idempotent-Replayed', 'RateLimit', 'RateLimit-Policy']);
    expect(headers('401')).to.deep.equal([]);
    expect(headers('429')).to.deep.equal(['RateLimit', 'RateLimit-Policy', 'Retry-After']);
    expect(headers('503')).to.deep.equal(['RateLimit', 'RateLimit-Policy']);
    expect(operation.parameters.find((parameter: { in: string }) => parameter.in === 'header')).to.include({ name: 'Idempotency-Key', required: false });
  });

  it('writes paths in the OpenAPI form', () => {
    expect(openApiPath('/v1/objects/:key(.+)')).to.equal('/v1/objects/{key}');
    expect(openApiPath('/v1/a/:b/c/:d')).to.equal('/v1/a/{b}/c/{d}');
  });
});
