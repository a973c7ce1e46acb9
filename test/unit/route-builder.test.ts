import { expect } from 'chai';
import { z } from 'zod';
import { inBody, inParams, inResult } from '../../gateway/http/access';
import { Identify, ROOT } from '../../gateway/auth/guards';
import { route } from '../../gateway/http/route';
import { buildRoutes, RouteSteps } from '../../gateway/pipeline/route-builder';

const identify: Identify = () => ROOT;
const steps: RouteSteps = {
  identify,
  applicationOfUpload: async () => null,
  audit: { open: async () => 'aud_1', close: async () => undefined },
};
const ok = z.object({ ok: z.boolean() });
const declare = (overrides: Record<string, unknown>) =>
  route({ method: 'get', path: '/v1/things', operationId: 'listThings', guard: 'admin', scope: 'read', summary: 'things', status: 200, response: ok, handle: () => ({ ok: true }), ...overrides });
const build = (overrides: Record<string, unknown>) => () => buildRoutes([declare(overrides)], steps);
const writing = { method: 'post', body: z.object({ applicationId: z.string() }).strict(), audit: { action: 'thing.create', target: inResult('ok') } };

describe('route builder', () => {
  it('builds a table of well-declared routes', () => {
    const built = buildRoutes([
      declare({}),
      declare({ path: '/v1/things/:thingId', params: z.object({ thingId: z.string() }), query: z.object({ page: z.string() }).strict().refine(() => true) }),
      declare({ ...writing, scope: 'publish', application: inBody('applicationId') }),
    ], steps);
    expect(built.routes).to.have.length(3);
  });

  it('refuses a query schema that would let unknown parameters through', () => {
    expect(build({ query: z.object({ page: z.string() }) })).to.throw(/strict/);
    expect(build({ query: z.object({ page: z.string() }).passthrough() })).to.throw(/strict/);
    expect(build({ query: z.record(z.string()) })).to.throw(/strict/);
  });

  it("refuses params that do not describe exactly the path's parameters", () => {
    expect(build({ path: '/v1/things/:thingId' })).to.throw(/thingId/);
    expect(build({ params: z.object({ thingId: z.string() }) })).to.throw(/params/);
  });

  it('refuses a hot route with a body', () => {
    expect(build({ guard: 'customer', scope: undefined, method: 'post', hot: true, body: z.object({}).strict() })).to.throw(/hot/);
  });

  describe('access declarations', () => {
    it('refuses an admin route without a scope, or with one that does not exist', () => {
      expect(build({ scope: undefined })).to.throw(/scope/);
      expect(build({ scope: 'everything' })).to.throw(/scope/);
    });

    it('refuses an admin write without its audit entry, and a read with one', () => {
      expect(build({ ...writing, audit: undefined })).to.throw(/audit/);
      expect(build({ audit: { action: 'thing.read', target: inResult('ok') } })).to.throw(/audit/);
      expect(build({ ...writing, audit: { action: 'Create thing', target: inResult('ok') } })).to.throw(/resource/);
    });

    it('refuses an application or a target the request or the response does not have', () => {
      expect(build({ application: inParams('applicationId') })).to.throw(/params\.applicationId/);
      expect(build({ ...writing, application: inBody('appId') })).to.throw(/body\.appId/);
      expect(build({ ...writing, audit: { action: 'thing.create', target: inResult('thingId') } })).to.throw(/result\.thingId/);
    });

    it('refuses a scope, an application or an audit entry on a route that is not an admin route', () => {
      expect(build({ guard: 'customer' })).to.throw(/only admin routes/);
      expect(build({ guard: 'none', scope: undefined, application: inBody('applicationId') })).to.throw(/only admin routes/);
    });

    it('makes a declaration that leaves out what its guard requires fail to compile', () => {
      const handle = () => ({ ok: true });
      const declarations = [
        // @ts-expect-error an admin route states the scope it needs
        () => route({ method: 'get', path: '/v1/things', operationId: 'listThings', guard: 'admin', summary: 'things', status: 200, response: ok, handle }),
        // @ts-expect-error an admin write states its audit entry
        () => route({ method: 'delete', path: '/v1/things', operationId: 'deleteThings', guard: 'admin', scope: 'manage', summary: 'things', status: 200, response: ok, handle }),
        // @ts-expect-error a customer route has no scope
        () => route({ method: 'get', path: '/v1/things', operationId: 'listThings', guard: 'customer', scope: 'read', summary: 'things', status: 200, response: ok, handle }),
        // @ts-expect-error every route names its operation (the API description's operationId)
        () => route({ method: 'get', path: '/v1/things', guard: 'none', summary: 'things', status: 200, response: ok, handle }),
      ];
      expect(declarations).to.have.length(4);
    });
  });
});
