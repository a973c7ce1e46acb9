import Router from '@koa/router';
import type { Middleware, Next } from 'koa';
import { notFound } from '../../shared/errors';
import type { RouteGuards } from '../app';
import type { GatewayDeps } from '../gateway-deps';
import { jsonBody } from '../middleware/json-body';
import { admitCaller, customerOf } from '../middleware/authenticate';
import { clientOrigin } from '../http/client-origin';
import type { AppContext, AppRouter, AppState } from '../http/context';
import { respond, sharedAnswerResponder } from '../http/respond';
import { queryValidator, validate } from '../http/validate';
import { createShareSchema, downloadUrlQuery, SHARE_TOKEN_PATTERN } from '../schemas/download-schemas';
import { DownloadInfo, DownloadService } from '../services/download-service';
import { ShareLinkService } from '../services/share-link-service';

const DOWNLOAD_URL_PATH = '/v1/downloads/url';
const SHARE_PATH_PREFIX = '/v1/downloads/share/';

export interface DownloadRoutes {
  /** Every download route, for matching, method checks (405 with Allow) and the requests the lane passes on. */
  router: AppRouter;
  /** Mounted ahead of all routers: answers the two requests that come in bursts. */
  lane: Middleware<AppState>;
}

/**
 * Customer downloads: pre-signed URLs (spec 4.12) and share links (4.13), whose use needs no key.
 * Installers, update checks and CI fleets send GET /v1/downloads/url and share-link uses in bursts;
 * the lane answers exactly those (method and path as written, no trailing slash, no escapes) with
 * one path comparison and the same handlers as the router, instead of the router's per-request
 * matching and middleware chain. Every other request, and every variant the router would also
 * accept, goes on to the router.
 */
export function downloadRoutes(deps: GatewayDeps, { customer, identify }: RouteGuards): DownloadRoutes {
  const router = new Router<AppState>({ prefix: '/v1' });
  const downloads = new DownloadService(deps.catalog, deps.storage, deps.events, deps.config.tiers);
  const shares = new ShareLinkService(deps.store, deps.catalog, deps.keyCache, deps.bus, downloads, deps.jobs, deps.config.tiers, deps.logger);
  const downloadTarget = queryValidator(downloadUrlQuery);
  const respondDownload = sharedAnswerResponder(presentDownload);
  const respondRedirect = sharedAnswerResponder(presentRedirect);

  const issueUrl = async (ctx: AppContext) => {
    const target = downloadTarget(ctx);
    const caller = customerOf(ctx);
    respondDownload(ctx, await downloads.issueUrl(caller, target, clientOrigin(ctx, caller.customerId)));
  };
  router.get('/downloads/url', customer, issueUrl);

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
    ctx.set('Location', info.downloadUrl);
    ctx.set('Cache-Control', 'no-store');
    respondRedirect(ctx, info, 302);
  };
  router.get('/downloads/share/:token', useShareLink);
  router.head('/downloads/share/:token', useShareLink);

  router.delete('/downloads/share/:token', customer, async (ctx) => {
    const revoked = await shares.revoke(customerOf(ctx).customerId, tokenParam(ctx));
    respond(ctx, { message: 'share link revoked', revokedAt: revoked.revokedAt?.toISOString(), expiresAt: revoked.expiresAt.toISOString() });
  });

  const lane = (ctx: AppContext, next: Next): Promise<void> => {
    const { method, path } = ctx;
    if (method === 'GET' && path === DOWNLOAD_URL_PATH) {
      const admitted = admitCaller(ctx, identify, 'customer');
      return admitted ? admitted.then(() => issueUrl(ctx)) : issueUrl(ctx);
    }
    if ((method === 'GET' || method === 'HEAD') && path.startsWith(SHARE_PATH_PREFIX)) {
      const token = path.slice(SHARE_PATH_PREFIX.length);
      if (SHARE_TOKEN_PATTERN.test(token)) {
        ctx.params = { token };
        return useShareLink(ctx);
      }
    }
    return next();
  };
  return { router, lane: lane as Middleware<AppState> };
}

function tokenParam(ctx: AppContext): string {
  const token = ctx.params.token ?? '';
  if (!SHARE_TOKEN_PATTERN.test(token)) throw notFound('share link not found');
  return token;
}

function presentRedirect(info: DownloadInfo) {
  return { downloadUrl: info.downloadUrl, expiresAt: info.expiresAt.toISOString() };
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
