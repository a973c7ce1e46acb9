import { version } from '../../package.json';
import type { GatewayDeps } from '../gateway-deps';
import { describeApi } from '../pipeline/api-description';
import { documentResponse, Route, route } from '../http/route';

import { API_DESCRIPTION_PATH } from '../../shared/contract/endpoints';

export { API_DESCRIPTION_PATH };

/**
 * GET /v1/openapi.json: the API description (OpenAPI 3.1) of every route in the table, this one
 * included, generated once when the table is built: a route that cannot be described stops the
 * gateway at start-up. Served as it is, outside the envelope, for the tools that read it.
 */
export function apiDescriptionRoute(deps: GatewayDeps, routes: readonly Route[]): Route {
  let document = '';
  const self = route({
    method: 'get', path: API_DESCRIPTION_PATH, operationId: 'getApiDescription', guard: 'none', summary: 'This API, described in OpenAPI 3.1 (generated from the route table)',
    status: 200, response: documentResponse('application/json', 'An OpenAPI 3.1 document'),
    handle: (_input, ctx) => {
      ctx.status = 200;
      ctx.type = 'application/json';
      ctx.body = document;
    },
  });
  document = JSON.stringify(describeApi([...routes, self], { serverUrl: deps.config.publicBaseUrl, version }));
  return self;
}
