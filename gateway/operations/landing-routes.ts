import { documentResponse, route } from '../http/route';
import type { RouteModule } from '../gateway-deps';
import { answerPage, escapeHtml, htmlPage } from '../http/html-page';
import { ENTRANCES } from './entrances';
import { FAVICON_PATH, FAVICON_SVG } from '../http/favicon';

/**
 * GET /: a person who opens the service in a browser learns what it is and where to go next (a small
 * page until a console or portal takes its place). No script, nothing from another origin.
 */
export const landingRoutes: RouteModule = (deps) => {
  const page = htmlPage('Binary Distribution Service', [
    '<h1>Binary Distribution Service</h1>',
    '<p>Vendors publish installers per application version here; their customers download them through',
    'time-limited URLs and share links. This address serves an HTTP API, not a website.</p>',
    '<ul>',
    ...ENTRANCES.map((entrance) => `<li><a href="${entrance.path}">${entrance.path}</a>: ${escapeHtml(entrance.what)}</li>`),
    '</ul><p>Besides:</p><ul>',
    `<li>Vendors: the <code>bds</code> command (<code>bds login --url ${escapeHtml(deps.config.publicBaseUrl)}</code>) or the`,
    'management API under <code>/v1/management</code>, with an admin key as <code>Authorization: Bearer &lt;key&gt;</code>.</li>',
    '<li>Customers: download with your customer key (<code>GET /v1/downloads/url?applicationId=&hellip;&amp;version=latest</code>), or open a share link you were given.</li>',
    '<li>Health: <a href="/healthz">/healthz</a> and <a href="/readyz">/readyz</a>.</li></ul>',
    "<p>Every route is described in the <a href=\"/docs/api\">API reference</a>; the service's README and its docs/ folder explain installation and going to production.</p>",
  ].join('\n'));
  return [
    route({
      method: 'get', path: '/', operationId: 'getLandingPage', guard: 'none', summary: 'A small HTML page naming the service and where to go next, for a person with a browser',
      status: 200, response: documentResponse('text/html', 'A page without scripts, under a strict Content-Security-Policy'),
      handle: (_input, ctx) => answerPage(ctx, 200, page),
    }),
    route({
      method: 'get', path: FAVICON_PATH, operationId: 'getFavicon', guard: 'none', summary: "The service's icon, which its pages link",
      status: 200, response: documentResponse('image/svg+xml', 'An SVG image'),
      handle: (_input, ctx) => {
        ctx.status = 200;
        ctx.type = 'image/svg+xml';
        ctx.set('Cache-Control', 'public, max-age=86400');
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
        ctx.body = FAVICON_SVG;
      },
    }),
  ];
};
