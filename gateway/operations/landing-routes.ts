import { documentResponse, route} from '../http/route';
import type { RouteModule } from '../gateway-deps';
import { answerPage, escapeHtml, htmlPage } from '../http/html-page';
import { API_DESCRIPTION_PATH } from './api-description-routes';

/**
 * GET /: a person who opens the service in a browser learns what it is and where to go next (a small
 * page until a console or portal takes its place). No script, nothing from another origin.
 */
export const landingRoutes: RouteModule = (deps) => {
  const page = htmlPage('Binary Distribution Service', [
    '<h1>Binary Distribution Service</h1>',
    '<p>Vendors publish installers per application version here; their customers download them through',
    'time-limited URLs and share links. This address serves an HTTP API, not a website.</p>',
    `<ul><li>The API, described in OpenAPI 3.1: <a href="${API_DESCRIPTION_PATH}">${API_DESCRIPTION_PATH}</a></li>`,
    `<li>Vendors: the <code>bds</code> command (<code>bds login --url ${escapeHtml(deps.config.publicBaseUrl)}</code>) or the`,
    'management API under <code>/v1/management</code>, with an admin key as <code>Authorization: Bearer &lt;key&gt;</code>.</li>',
    '<li>Customers: download with your customer key (<code>GET /v1/downloads/url?applicationId=&hellip;&amp;version=latest</code>), or open a share link you were given.</li>',
    '<li>Health: <a href="/healthz">/healthz</a> and <a href="/readyz">/readyz</a>.</li></ul>',
    "<p>The service's README explains installation, every route and going to production.</p>",
  ].join('\n'));
  return [
    route({
      method: 'get', path: '/', operationId: 'getLandingPage', guard: 'none', summary: 'A small HTML page naming the service and where to go next, for a person with a browser',
      status: 200, response: documentResponse('text/html', 'A page without scripts, under a strict Content-Security-Policy'),
      handle: (_input, ctx) => answerPage(ctx, 200, page),
    }),
  ];
};
