import { notFound } from '../../shared/errors';
import { clientOrigin } from '../http/client-origin';
import { route, RouteModule } from '../http/route';
import {
  createdShareLinkResponse,
  downloadResponse,
  presentCreatedShareLink,
  presentDownload,
  presentRedirect,
  presentRevokedShareLink,
  redirectResponse,
  revokedShareLinkResponse,
} from '../../shared/contract/downloads';
import { presentReleaseList, releaseListResponse } from '../../shared/contract/releases';
import { createShareSchema, downloadUrlQuery, releasesQuery, SHARE_TOKEN_PATTERN, shareTokenParams } from '../schemas/download-schemas';
import { isPending } from '../http/eventually';

/** The download paths; hot routes among them are answered by the hot lane as well as the router. */
export const DOWNLOAD_URL_PATH = '/v1/downloads/url';
export const RELEASES_PATH = '/v1/downloads/releases';
export const SHARE_LINKS_PATH = '/v1/downloads/share';
export const SHARE_LINK_PATH = `${SHARE_LINKS_PATH}/:token`;

/**
 * Customer downloads: pre-signed URLs of an exact version or the latest (valid for the policy's
 * download-URL lifetime), share links, whose use needs no key, and the releases a customer may download. Installers, update checks
 * and CI fleets send GET /v1/downloads/url and share-link uses in bursts: those two are hot.
 */
export const downloadRoutes: RouteModule = (deps, { downloads, shareLinks: shares }) => {

  return [
    route({
      method: 'get', path: DOWNLOAD_URL_PATH, operationId: 'getDownloadUrl', guard: 'customer', summary: 'A pre-signed download URL for a file the customer may download',
      query: downloadUrlQuery(deps.config.channels), hot: true,
      status: 200, failures: [404, 410], response: downloadResponse,
      handle: ({ query }, ctx, customer) => downloads.issueUrl(customer, query, clientOrigin(ctx, customer.customerId), presentDownload),
    }),
    route({
      method: 'post', path: SHARE_LINKS_PATH, operationId: 'createShareLink', guard: 'customer', summary: 'Create a share link that downloads without a key',
      body: createShareSchema(deps.config.channels),
      status: 201, failures: [404, 410], response: createdShareLinkResponse,
      handle: async ({ body }, _ctx, customer) => {
        const { token, link } = await shares.create(customer, body);
        return presentCreatedShareLink(link, token, `${deps.config.publicBaseUrl}${SHARE_LINKS_PATH}/${token}`);
      },
    }),
    route({
      method: 'get', path: RELEASES_PATH, operationId: 'listReleases', guard: 'customer', summary: 'The releases the customer may download, newest first, with their files (no URLs)',
      query: releasesQuery(deps.config.channels),
      status: 200, failures: [404], response: releaseListResponse,
      handle: async ({ query }, _ctx, customer) => {
        const { page, pageSize, ...selector } = query;
        const offered = deps.releaseCatalog.releases(customer, selector);
        return presentReleaseList(isPending(offered) ? await offered : offered, page, pageSize);
      },
    }),
    route({
      method: 'get', path: SHARE_LINK_PATH, operationId: 'useShareLink', guard: 'none', summary: 'Use a share link: 302 to a short-lived download URL (HEAD records nothing)',
      params: shareTokenParams, hot: true, limitedPer: 'token',
      status: 302, failures: [403, 410], response: redirectResponse,
      handle: async ({ params }, ctx) => {
        const { clientIp, userAgent } = clientOrigin(ctx, null);
        const answer = await shares.resolve(tokenOf(params.token), { clientIp, userAgent }, ctx.method === 'GET', presentRedirect);
        // Set directly rather than through ctx.redirect, whose content negotiation and URL re-parsing cost
        // more than the rest of this response: the URL comes from our own signers, absolute and encoded.
        ctx.set('Location', answer.data.downloadUrl);
        ctx.set('Cache-Control', 'no-store');
        return answer;
      },
    }),
    route({
      method: 'delete', path: SHARE_LINK_PATH, operationId: 'revokeShareLink', guard: 'customer', summary: 'Revoke a share link (its creator only)',
      params: shareTokenParams,
      status: 200, response: revokedShareLinkResponse,
      handle: async ({ params }, _ctx, customer) => presentRevokedShareLink(await shares.revoke(customer.customerId, tokenOf(params.token))),
    }),
  ];
};

/** A token that cannot exist is answered like an unknown one. */
function tokenOf(token: string): string {
  if (!SHARE_TOKEN_PATTERN.test(token)) throw notFound('share link not found');
  return token;
}
