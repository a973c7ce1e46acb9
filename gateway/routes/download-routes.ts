import { notFound } from '../../shared/errors';
import { clientOrigin } from '../http/client-origin';
import { Reply } from '../http/reply';
import { route, RouteModule } from '../http/route';
import {
  downloadResponse,
  presentDownload,
  presentRedirect,
  presentRevokedShareLink,
  presentShareLink,
  redirectResponse,
  revokedShareLinkResponse,
  shareLinkResponse,
  SignedDownload,
} from '../presenters/downloads';
import { createShareSchema, downloadUrlQuery, SHARE_TOKEN_PATTERN, shareTokenParams } from '../schemas/download-schemas';
import { DownloadService } from '../services/download-service';
import { ShareLinkService } from '../services/share-link-service';

const SHARE_LINK = '/v1/downloads/share/:token';

/**
 * Customer downloads: pre-signed URLs (spec 4.12) and share links (4.13), whose use needs no key.
 * Installers, update checks and CI fleets send GET /v1/downloads/url and share-link uses in bursts:
 * those two are hot, answered by the download lane ahead of the router.
 */
export const downloadRoutes: RouteModule = (deps) => {
  const downloads = new DownloadService(deps.catalog, deps.storage, deps.events, deps.config.tiers);
  const shares = new ShareLinkService(deps.store, deps.catalog, deps.keyCache, deps.bus, downloads, deps.jobs, deps.config.tiers, deps.logger);
  // The answer every request for one file gets within one second is one object: serialize it once.
  const replies = new WeakMap<SignedDownload, Reply<unknown>>();
  const shared = <T>(signed: SignedDownload, present: (signed: SignedDownload) => T): Reply<T> => {
    let reply = replies.get(signed) as Reply<T> | undefined;
    if (!reply) {
      reply = Reply.shared(present(signed));
      replies.set(signed, reply);
    }
    return reply;
  };

  return [
    route({
      method: 'get', path: '/v1/downloads/url', guard: 'customer', summary: 'A pre-signed download URL for a file the customer may download',
      query: downloadUrlQuery, hot: true,
      status: 200, response: downloadResponse,
      handle: async ({ query }, ctx, customer) =>
        shared(await downloads.issueUrl(customer, query, clientOrigin(ctx, customer.customerId)), presentDownload),
    }),
    route({
      method: 'post', path: '/v1/downloads/share', guard: 'customer', summary: 'Create a share link that downloads without a key',
      body: createShareSchema,
      status: 201, response: shareLinkResponse,
      handle: async ({ body }, _ctx, customer) => {
        const { token, link } = await shares.create(customer, body);
        return presentShareLink(link, token, deps.config.publicBaseUrl);
      },
    }),
    route({
      method: 'get', path: SHARE_LINK, guard: 'none', summary: 'Use a share link: 302 to a short-lived download URL (HEAD records nothing)',
      params: shareTokenParams, hot: true,
      status: 302, response: redirectResponse,
      handle: async ({ params }, ctx) => {
        const { clientIp, userAgent } = clientOrigin(ctx, null);
        const signed = await shares.resolve(tokenOf(params.token), { clientIp, userAgent }, ctx.method === 'GET');
        // Set directly rather than through ctx.redirect, whose content negotiation and URL re-parsing cost
        // more than the rest of this response: the URL comes from our own signers, absolute and encoded.
        ctx.set('Location', signed.downloadUrl);
        ctx.set('Cache-Control', 'no-store');
        return shared(signed, presentRedirect);
      },
    }),
    route({
      method: 'delete', path: SHARE_LINK, guard: 'customer', summary: 'Revoke a share link (its creator only)',
      params: shareTokenParams,
      status: 200, response: revokedShareLinkResponse,
      handle: async ({ params }, _ctx, customer) => presentRevokedShareLink(await shares.revoke(customer.customerId, tokenOf(params.token))),
    }),
  ];
};

function tokenOf(token: string): string {
  if (!SHARE_TOKEN_PATTERN.test(token)) throw notFound('share link not found');
  return token;
}

