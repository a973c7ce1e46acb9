import Router from '@koa/router';
import { notFound } from '../../shared/errors';
import type { RouteGuards } from '../app';
import type { GatewayDeps } from '../gateway-deps';
import { jsonBody } from '../middleware/json-body';
import { customerOf } from '../middleware/authenticate';
import { clientOrigin } from '../http/client-origin';
import type { AppContext, AppRouter, AppState } from '../http/context';
import { respond } from '../http/respond';
import { validate } from '../http/validate';
import { createShareSchema, downloadUrlQuery, SHARE_TOKEN_PATTERN } from '../schemas/download-schemas';
import { DownloadInfo, DownloadService } from '../services/download-service';
import { ShareLinkService } from '../services/share-link-service';

/**
 * Customer downloads: pre-signed URLs (spec 4.12) and share links (4.13), whose use needs no key.
 * A router of their own, mounted ahead of every other: the busiest requests of the service are then
 * matched against these four routes only instead of the whole API.
 */
export function downloadRoutes(deps: GatewayDeps, { customer }: RouteGuards): AppRouter {
  const router = new Router<AppState>({ prefix: '/v1' });
  const downloads = new DownloadService(deps.catalog, deps.storage, deps.events, deps.config.tiers);
  const shares = new ShareLinkService(deps.store, deps.catalog, deps.keyCache, deps.bus, downloads, deps.jobs, deps.config.tiers, deps.logger);

  router.get('/downloads/url', customer, async (ctx) => {
    const target = validate(downloadUrlQuery, ctx.query);
    const caller = customerOf(ctx);
    respond(ctx, presentDownload(await downloads.issueUrl(caller, target, clientOrigin(ctx, caller.customerId))));
  });

  // Mounted before the application's JSON body parser, so this route parses its own body.
  router.post('/downloads/share', jsonBody, customer, async (ctx) => {
    const body = validate(createShareSchema, ctx.request.body);
    const { token, link } = await shares.create(customerOf(ctx), body);
    respond(ctx, {
      shareUrl: `${deps.config.publicBaseUrl}/v1/downloads/share/${token}`,
      token,
      expiresAt: link.expiresAt.toISOString(),
    }, 201);
  });

  const useShareLink = async (ctx: AppContext) => {
    const { clientIp, userAgent } = clientOrigin(ctx, null);
    const info = await shares.resolve(tokenParam(ctx), { clientIp, userAgent }, ctx.method === 'GET');
    // Set directly rather than through ctx.redirect, whose content negotiation and URL re-parsing cost
    // more than the rest of this response: the URL comes from our own signers, absolute and encoded.
    ctx.status = 302;
    ctx.set('Location', info.downloadUrl);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { success: true, data: { downloadUrl: info.downloadUrl, expiresAt: info.expiresAt.toISOString() } };
  };
  router.get('/downloads/share/:token', useShareLink);
  router.head('/downloads/share/:token', useShareLink);

  router.delete('/downloads/share/:token', customer, async (ctx) => {
    const revoked = await shares.revoke(customerOf(ctx).customerId, tokenParam(ctx));
    respond(ctx, { message: 'share link revoked', revokedAt: revoked.revokedAt?.toISOString(), expiresAt: revoked.expiresAt.toISOString() });
  });
  return router;
}

function tokenParam(ctx: AppContext): string {
  const token = ctx.params.token ?? '';
  if (!SHARE_TOKEN_PATTERN.test(token)) throw notFound('share link not found');
  return token;
}

function presentDownload(info: DownloadInfo) {
  return {
    downloadUrl: info.downloadUrl,
    expiresAt: info.expiresAt.toISOString(),
    fileName: info.fileName,
    fileSize: info.fileSize,
    checksum: info.checksum,
    fileId: info.fileId,
  };
}
