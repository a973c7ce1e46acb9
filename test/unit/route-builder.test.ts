import { expect } from 'chai';
import { z } from 'zod';
import type { Identify } from '../../gateway/http/guards';
import { route } from '../../gateway/http/route';
import { buildRoutes } from '../../gateway/http/route-builder';

const identify: Identify = () => ({ kind: 'admin' });
const ok = z.object({ ok: z.boolean() });
const declare = (overrides: Record<string, unknown>) =>
  route({ method: 'get', path: '/v1/things', guard: 'admin', summary: 'things', status: 200, response: ok, handle: () => ({ ok: true }), ...overrides });

describe('route builder', () => {
  it('builds a table of well-declared routes', () => {
    const built = buildRoutes([
      declare({}),
      declare({ path: '/v1/things/:thingId', params: z.object({ thingId: z.string() }), query: z.object({ page: z.string() }).strict().refine(() => true) }),
    ], identify);
    expect(built.routes).to.have.length(2);
  });

  it('refuses a query schema that would let unknown parameters through', () => {
    expect(() => buildRoutes([declare({ query: z.object({ page: z.string() }) })], identify)).to.throw(/strict/);
    expect(() => buildRoutes([declare({ query: z.object({ page: z.string() }).passthrough() })], identify)).to.throw(/strict/);
    expect(() => buildRoutes([declare({ query: z.record(z.string()) })], identify)).to.throw(/strict/);
  });

  it("refuses params that do not describe exactly the path's parameters", () => {
    expect(() => buildRoutes([declare({ path: '/v1/things/:thingId' })], identify)).to.throw(/thingId/);
    expect(() => buildRoutes([declare({ params: z.object({ thingId: z.string() }) })], identify)).to.throw(/params/);
  });

  it('refuses a hot route with a body', () => {
    expect(() => buildRoutes([declare({ method: 'post', hot: true, body: z.object({}).strict() })], identify)).to.throw(/hot/);
  });
});
