import { operationRoute } from '../http/operation-route';
import { notFound,validationError } from '../../shared/errors';
import type { Arch,Platform } from '../../shared/releases/platforms';
import type { AppContext } from '../http/context';
import type { Reply } from '../http/reply';
import { LatestLinkQuery,TargetSegment } from '../../shared/contract/latest-links-requests';
import type { LatestBuildRequest } from '../releases/release-catalog';
import { clientAddress,clientOrigin } from '../http/client-origin';
import { presentLicence,presentLicenceAcceptance } from '../../shared/contract/licences';
import { presentCustomerApplication } from '../../shared/contract/applications';
import { pagination } from '../../shared/contract/common';
import { route } from '../http/route';
import type { RouteModule } from '../gateway-deps';
import type { DownloadService } from './download-service';
import type { ShareLinkService } from './share-link-service';
import type { LicenceGate } from './licence-gate';
import {
presentCreatedShareLink,
presentDownload,
presentRedirect,
presentRevokedShareLink,
redirectResponse
} from '../../shared/contract/downloads';
import { presentReleaseList } from '../../shared/contract/releases';
import { SHARE_TOKEN_PATTERN,shareTokenParams } from '../../shared/contract/downloads-requests';
import { SHARE_LINKS_PATH } from '../http/loggable-path';
import { callerBaseUrl } from '../http/caller-base-url';
import type { LogoService } from '../applications/logo-service';

/** The download paths; hot routes among them are answered by the hot lane as well as the router. */
export const DOWNLOAD_URL_PATH = '/v1/downloads/url';
export const RELEASES_PATH = '/v1/downloads/releases';
export const SHARE_LINK_PATH = `${SHARE_LINKS_PATH}/:token`;
/** "Latest for my OS" links: stable URLs a vendor can publish, answered with a redirect to the newest build. */
export const LATEST_LINK_PATH = '/v1/downloads/latest/:applicationId/:platform';
export const LATEST_ARCH_LINK_PATH = `${LATEST_LINK_PATH}/:arch`;
export const CUSTOMER_APPLICATIONS_PATH = '/v1/downloads/applications';
export const CUSTOMER_APPLICATION_LOGO_PATH = `${CUSTOMER_APPLICATIONS_PATH}/:applicationId/logo`;
export const LICENCE_PATH = '/v1/downloads/licence/:applicationId';
export const LICENCE_ACCEPT_PATH = `${LICENCE_PATH}/accept`;

/**
 * Customer downloads: pre-signed URLs of an exact version or the latest (valid for the policy's
 * download-URL lifetime), share links, whose use needs no key, and the releases a customer may download. Installers, update checks
 * and CI fleets send GET /v1/downloads/url and share-link uses in bursts: those two are hot.
 */
export const downloadRoutes: RouteModule<{ downloads: DownloadService; shareLinks: ShareLinkService; licences: LicenceGate; logos: LogoService }> = (deps, { downloads, shareLinks: shares, licences, logos }) => {
  return [
    operationRoute(deps.config, 'getDownloadUrl', {
      guard: 'customer', summary: 'A pre-signed download URL for a file the customer may download (HEAD records nothing)',
      hot: true,
      status: 200, failures: [404, 410],
      handle: ({ query }, ctx, customer) => downloads.issueUrl(customer, query, clientOrigin(ctx, customer.customerId), presentDownload, ctx.method === 'GET'),
    }),
    operationRoute(deps.config, 'getLatestDownload', {
      guard: 'customer', hot: true, noStore: true,
      summary: 'Redirect to the newest build offered to the customer for a platform (any arch), optionally of a file type',
      status: 302,
      handle: ({ params, query }, ctx, customer) => redirected(ctx, downloads.issueLatest(customer,
        latestRequest(params.applicationId, params.platform, undefined, query), clientOrigin(ctx, customer.customerId), presentRedirect, ctx.method === 'GET')),
    }),
    operationRoute(deps.config, 'getLatestDownloadForArch', {
      guard: 'customer', hot: true, noStore: true,
      summary: 'Redirect to the newest build offered to the customer for a platform and arch, optionally of a file type',
      status: 302,
      handle: ({ params, query }, ctx, customer) => redirected(ctx, downloads.issueLatest(customer,
        latestRequest(params.applicationId, params.platform, params.arch, query), clientOrigin(ctx, customer.customerId), presentRedirect, ctx.method === 'GET')),
    }),
    operationRoute(deps.config, 'listCustomerApplications', {
      guard: 'customer', noStore: true,
      summary: 'The applications the customer may download, oldest first, with how to present them and their licence state',
      status: 200,
      handle: async ({ query }, ctx, customer) => {
        // An access token narrowed to applications lists only those.
        const applicationIds = customer.token?.record.applications ?? undefined;
        const { items, total } = await deps.store.applications.listApplications({ customerId: customer.customerId, applicationIds, page: query.page, pageSize: query.pageSize });
        const accepted = await Promise.all(items.map((application) => licences.acceptanceOf(customer, application)));
        const baseUrl = callerBaseUrl(deps.config.publicBaseUrl, ctx.state);
        return {
          applications: items.map((application, i) => presentCustomerApplication(application, accepted[i] !== null, baseUrl)),
          pagination: pagination(query.page, query.pageSize, total),
        };
      },
    }),
    operationRoute(deps.config, 'getApplicationLogo', {
      guard: 'customer',
      summary: "An application's logo, the image itself (ETag: its SHA-256); 404 when it has none or the customer may not download it",
      status: [200, 304],
      handle: async ({ params }, ctx, customer) => logos.answer(ctx, params.applicationId, (await downloads.application(customer, params.applicationId)).logo),
    }),
    operationRoute(deps.config, 'getLicence', {
      guard: 'customer', noStore: true,
      summary: "An application's licence: its text, rendered HTML and revision, and whether the customer has accepted it",
      status: 200,
      handle: async ({ params }, _ctx, customer) => {
        const { application, acceptance } = await downloads.licence(customer, params.applicationId);
        return presentLicence(application, acceptance);
      },
    }),
    operationRoute(deps.config, 'acceptLicence', {
      guard: 'customer',
      summary: "Accept the current revision of an application's licence (recorded with the time and client address, and audited)",
      status: 200, failures: [409],
      handle: async ({ params, body }, ctx, customer) => {
        return presentLicenceAcceptance(await downloads.acceptLicence(customer, params.applicationId, body.revision, clientAddress(ctx), ctx.state.requestId));
      },
    }),
    operationRoute(deps.config, 'createShareLink', {
      guard: 'customer', summary: 'Create a share link that downloads without a key',
      status: 201, failures: [404, 410],
      handle: async ({ body }, _ctx, customer) => {
        const { token, link } = await shares.create(customer, body);
        return presentCreatedShareLink(link, token, `${deps.config.publicBaseUrl}${SHARE_LINKS_PATH}/${token}`);
      },
    }),
    operationRoute(deps.config, 'listReleases', {
      guard: 'customer', summary: 'The releases the customer may download, newest first, with their files (no URLs)',
      status: 200, failures: [404],
      handle: async ({ query }, _ctx, customer) => {
        const { page, pageSize, ...selector } = query;
        return presentReleaseList(await downloads.offeredReleases(customer, selector), page, pageSize);
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
    operationRoute(deps.config, 'revokeShareLink', {
      guard: 'customer', summary: 'Revoke a share link (its creator only)',
      status: 200,
      handle: async ({ params }, _ctx, customer) => presentRevokedShareLink(await shares.revoke(customer.customerId, tokenOf(params.token))),
    }),
  ];
};

/**
 * A latest link's request: its target, and the file type the query or the last segment's extension
 * names (both may, when they agree).
 */
function latestRequest(applicationId: string, platform: TargetSegment<Platform>, arch: TargetSegment<Arch> | undefined, query: LatestLinkQuery): LatestBuildRequest {
  const inPath = arch ? arch.fileType : platform.fileType;
  if (inPath !== undefined && query.fileType !== undefined && inPath.toLowerCase() !== query.fileType.toLowerCase()) {
    throw validationError([{ field: 'fileType', message: `names another file type than the path's extension (${inPath})` }]);
  }
  return { applicationId, platform: platform.value, arch: arch?.value, channel: query.channel, fileType: query.fileType ?? inPath };
}

/** Sets the answer's Location: directly, as the share links do (the URL comes from our own signers, absolute and encoded). */
async function redirected(ctx: AppContext, answered: Promise<Reply<{ downloadUrl: string; expiresAt: string }>>): Promise<Reply<{ downloadUrl: string; expiresAt: string }>> {
  const answer = await answered;
  ctx.set('Location', answer.data.downloadUrl);
  return answer;
}

/** A token that cannot exist is answered like an unknown one. */
function tokenOf(token: string): string {
  if (!SHARE_TOKEN_PATTERN.test(token)) throw notFound('share link not found');
  return token;
}
