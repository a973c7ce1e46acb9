import { version } from '../../package.json';
import { renderDocument } from '../../shared/markdown';
import type { GatewayDeps } from '../gateway-deps';
import { answerPage, htmlPage } from '../http/html-page';
import { describeApi } from '../pipeline/api-description';
import { apiReferenceMarkdown } from '../pipeline/api-reference';
import { documentResponse, Route, route } from '../http/route';

import { API_DESCRIPTION_PATH } from '../../shared/contract/endpoints';

export { API_DESCRIPTION_PATH };
export const API_REFERENCE_PATH = '/docs/api';

/**
 * GET /v1/openapi.json: the API description (OpenAPI 3.1) of every route in the table, these two
 * included, generated once when the table is built: a route that cannot be described stops the
 * gateway at start-up. Served as it is, outside the envelope, for the tools that read it.
 *
 * GET /docs/api: the same description as a page for people, the Markdown of docs/api.md
 * (pipeline/api-reference.ts) rendered and sanitized once, for the routes this configuration serves.
 * No script, nothing from another origin.
 */
export function apiDescriptionRoutes(deps: GatewayDeps, routes: readonly Route[]): Route[] {
  let document = '';
  let page = '';
  const description = route({
    method: 'get', path: API_DESCRIPTION_PATH, operationId: 'getApiDescription', guard: 'none', summary: 'This API, described in OpenAPI 3.1 (generated from the route table)',
    status: 200, response: documentResponse('application/json', 'An OpenAPI 3.1 document'),
    handle: (_input, ctx) => {
      ctx.status = 200;
      ctx.type = 'application/json';
      ctx.body = document;
    },
  });
  const reference = route({
    method: 'get', path: API_REFERENCE_PATH, operationId: 'getApiReferencePage', guard: 'none', summary: 'The API reference (docs/api.md) as a page for people, generated from the API description',
    status: 200, response: documentResponse('text/html', 'A page without scripts, under a strict Content-Security-Policy'),
    handle: (_input, ctx) => answerPage(ctx, 200, page, 'document'),
  });
  const described = describeApi([...routes, description, reference], { serverUrl: deps.config.publicBaseUrl, version });
  document = JSON.stringify(described);
  page = htmlPage('API reference · Binary Distribution Service', `<main>\n${renderDocument(apiReferenceMarkdown(described))}\n</main>`, 'document');
  return [description, reference];
}
