import { inParams, inResult } from '../http/access';
import { rawBytesOf, route } from '../http/route';
import { LOGO_CONTENT_TYPES } from '../../shared/policy';
import type { RouteModule } from '../gateway-deps';
import type { ApplicationService } from './application-service';
import type { LogoService } from './logo-service';
import { receiveLogoBytes } from './logo-upload';
import type { VersionService } from './version-service';
import {
  applicationListResponse,
  applicationResponse,
  applicationWithVersionsResponse,
  deletedApplicationResponse,
  presentApplication,
  presentApplicationList,
  presentApplicationWithVersions,
  presentDeletedApplication,
} from '../../shared/contract/applications';
import { downloadResponse, presentDownload } from '../../shared/contract/downloads';
import { adminDownloadUrl } from './admin-download';
import {
  deletedFileResponse,
  deletedVersionResponse,
  presentDeletedFile,
  presentDeletedVersion,
  presentVersion,
  presentVersionList,
  versionListResponse,
  versionResponse,
} from '../../shared/contract/versions';
import {
  applicationParams,
  createApplicationSchema,
  includeDeletedQuery,
  listApplicationsQuery,
  updateApplicationSchema,
  versionFileParams,
  versionParams,
} from '../../shared/contract/applications-requests';
import { listVersionsQuery, updateVersionSchema } from '../../shared/contract/versions-requests';

const APPLICATIONS = '/v1/management/applications';
const APPLICATION = `${APPLICATIONS}/:applicationId`;

/** Applications (create, list, read, update, soft delete and restore) and their versions. */
export const applicationRoutes: RouteModule<{ applications: ApplicationService; versions: VersionService; logos: LogoService }> = (deps, { applications, versions, logos }) => {

  return [
    route({
      method: 'post', path: APPLICATIONS, operationId: 'createApplication', guard: 'admin', scope: 'manage', summary: 'Create an application',
      audit: { action: 'application.create', target: inResult('applicationId'), application: inResult('applicationId') },
      body: createApplicationSchema,
      status: 201, response: applicationResponse,
      handle: async ({ body }) => presentApplication(await applications.create(body)),
    }),
    route({
      method: 'get', path: APPLICATIONS, operationId: 'listApplications', guard: 'admin', scope: 'read', summary: 'List applications, oldest first',
      query: listApplicationsQuery,
      status: 200, response: applicationListResponse,
      handle: async ({ query }) => {
        const { items, total } = await applications.list(query);
        return presentApplicationList(items, query.page, query.pageSize, total);
      },
    }),
    route({
      method: 'get', path: APPLICATION, operationId: 'getApplication', guard: 'admin', scope: 'read', summary: 'Read an application with its versions and files',
      application: inParams('applicationId'),
      params: applicationParams, query: includeDeletedQuery,
      status: 200, response: applicationWithVersionsResponse,
      handle: async ({ params, query }) => {
        const { application, versions: list } = await applications.get(params.applicationId, query.includeDeleted);
        return presentApplicationWithVersions(application, list);
      },
    }),
    route({
      method: 'patch', path: APPLICATION, operationId: 'updateApplication', guard: 'admin', scope: 'manage', summary: 'Change an application',
      application: inParams('applicationId'), audit: { action: 'application.update', target: inParams('applicationId') },
      params: applicationParams, body: updateApplicationSchema,
      status: 200, response: applicationResponse,
      handle: async ({ params, body }) => presentApplication(await applications.update(params.applicationId, body)),
    }),
    route({
      method: 'delete', path: APPLICATION, operationId: 'deleteApplication', guard: 'admin', scope: 'manage', summary: 'Soft-delete an application',
      application: inParams('applicationId'), audit: { action: 'application.delete', target: inParams('applicationId') },
      params: applicationParams,
      status: 200, response: deletedApplicationResponse,
      handle: async ({ params }) => presentDeletedApplication(await applications.softDelete(params.applicationId)),
    }),
    route({
      method: 'post', path: `${APPLICATION}/restore`, operationId: 'restoreApplication', guard: 'admin', scope: 'manage', summary: 'Restore a soft-deleted application',
      application: inParams('applicationId'), audit: { action: 'application.restore', target: inParams('applicationId') },
      params: applicationParams,
      status: 200, response: applicationResponse,
      handle: async ({ params }) => presentApplication(await applications.restore(params.applicationId)),
    }),
    route({
      method: 'put', path: `${APPLICATION}/logo`, operationId: 'setApplicationLogo', guard: 'admin', scope: 'manage',
      summary: `Set the logo the customer portal shows: the image's raw bytes (${LOGO_CONTENT_TYPES.join(', ')}), replacing any logo before`,
      application: inParams('applicationId'), audit: { action: 'application.setLogo', target: inParams('applicationId') },
      params: applicationParams, body: rawBytesOf(LOGO_CONTENT_TYPES),
      status: 200, response: applicationResponse,
      handle: async ({ params }, ctx) => {
        // The type is checked before a byte is read; the bytes are checked against it once read.
        const declared = logos.admitType(ctx.get('Content-Type') || undefined);
        return presentApplication(await logos.set(params.applicationId, declared, await receiveLogoBytes(ctx)));
      },
    }),
    route({
      method: 'get', path: `${APPLICATION}/logo`, operationId: 'getAdminApplicationLogo', guard: 'admin', scope: 'read',
      summary: "The application's logo, the image itself (ETag: its SHA-256), as the console previews it; 404 when it has none",
      application: inParams('applicationId'),
      params: applicationParams,
      status: [200, 304], response: 'bytes',
      handle: async ({ params }, ctx) => logos.answer(ctx, params.applicationId, (await applications.require(params.applicationId)).logo),
    }),
    route({
      method: 'delete', path: `${APPLICATION}/logo`, operationId: 'removeApplicationLogo', guard: 'admin', scope: 'manage', summary: "Remove the application's logo",
      application: inParams('applicationId'), audit: { action: 'application.removeLogo', target: inParams('applicationId') },
      params: applicationParams,
      status: 200, response: applicationResponse,
      handle: async ({ params }) => presentApplication(await logos.remove(params.applicationId)),
    }),
    route({
      method: 'get', path: `${APPLICATION}/versions`, operationId: 'listVersions', guard: 'admin', scope: 'read', summary: "List an application's versions with their files, newest first by the version order",
      application: inParams('applicationId'),
      params: applicationParams, query: listVersionsQuery(deps.config.channels),
      status: 200, response: versionListResponse,
      handle: async ({ params, query }) => {
        const { application, versions: list } = await versions.list(params.applicationId, query);
        return presentVersionList(list, application);
      },
    }),
    route({
      method: 'patch', path: `${APPLICATION}/versions/:version`, operationId: 'updateVersion', guard: 'admin', scope: 'publish', summary: "Change a version's channel, status (publish, yank, un-yank), rollout, required tier or release notes",
      application: inParams('applicationId'),
      audit: { action: 'version.update', target: [inParams('applicationId'), inParams('version')] },
      params: versionParams, body: updateVersionSchema(deps.config.tiers, deps.config.channels),
      status: 200, failures: [409, 422], response: versionResponse,
      handle: async ({ params, body }) => {
        const { application, version } = await versions.update(params.applicationId, params.version, body);
        return presentVersion(version, application);
      },
    }),
    route({
      method: 'get', path: `${APPLICATION}/versions/:version/files/:fileId/download`, operationId: 'getAdminFileDownloadUrl', guard: 'admin', scope: 'read',
      summary: 'A pre-signed download URL for any available file, drafts included, to test a release (not counted as a download)',
      application: inParams('applicationId'),
      params: versionFileParams,
      status: 200, response: downloadResponse,
      handle: async ({ params }) => presentDownload(await adminDownloadUrl(deps.store, deps.storage, params.applicationId, params.version, params.fileId)),
    }),
    route({
      method: 'delete', path: `${APPLICATION}/versions/:version`, operationId: 'deleteDraftVersion', guard: 'admin', scope: 'publish', summary: 'Delete a draft version with its files and their bytes (a published or yanked version is refused: yank it)',
      application: inParams('applicationId'),
      audit: { action: 'version.delete', target: [inParams('applicationId'), inParams('version')] },
      params: versionParams,
      status: 200, failures: [409], response: deletedVersionResponse,
      handle: async ({ params }) => presentDeletedVersion(await versions.delete(params.applicationId, params.version)),
    }),
    route({
      method: 'delete', path: `${APPLICATION}/versions/:version/files/:fileId`, operationId: 'deleteVersionFile', guard: 'admin', scope: 'publish',
      summary: "Delete a file and its bytes: a failed upload's file in any version, any file of a draft (a shipped version's files are refused: yank it)",
      application: inParams('applicationId'),
      audit: { action: 'file.delete', target: [inParams('applicationId'), inParams('version'), inParams('fileId')] },
      params: versionFileParams,
      status: 200, failures: [409], response: deletedFileResponse,
      handle: async ({ params }) => presentDeletedFile(await versions.deleteFile(params.applicationId, params.version, params.fileId)),
    }),
  ];
};
