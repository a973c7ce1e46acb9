import { operationRoute } from '../http/operation-route';
import { inParams,inResult } from '../http/access';
import { LOGO_CONTENT_TYPES } from '../../shared/policy';
import type { RouteModule } from '../gateway-deps';
import type { ApplicationService } from './application-service';
import type { LogoService } from './logo-service';
import { receiveLogoBytes } from './logo-upload';
import type { VersionService } from './version-service';
import {
presentApplication,
presentApplicationList,
presentApplicationWithVersions,
presentDeletedApplication
} from '../../shared/contract/applications';
import { presentDownload } from '../../shared/contract/downloads';
import { adminDownloadUrl } from './admin-download';
import {
presentDeletedFile,
presentDeletedVersion,
presentVersion,
presentVersionList
} from '../../shared/contract/versions';


/** Applications (create, list, read, update, soft delete and restore) and their versions. */
export const applicationRoutes: RouteModule<{ applications: ApplicationService; versions: VersionService; logos: LogoService }> = (deps, { applications, versions, logos }) => {

  return [
    operationRoute(deps.config, 'createApplication', {
      guard: 'admin', scope: 'manage', summary: 'Create an application',
      description: 'A taken applicationId, even one of a deleted application, is 409.',
      audit: { action: 'application.create', target: inResult('applicationId'), application: inResult('applicationId') },
      status: 201,
      handle: async ({ body }) => presentApplication(await applications.create(body)),
    }),
    operationRoute(deps.config, 'listApplications', {
      guard: 'admin', scope: 'read', summary: 'List applications, oldest first',
      status: 200,
      handle: async ({ query }) => {
        const { items, total } = await applications.list(query);
        return presentApplicationList(items, query.page, query.pageSize, total);
      },
    }),
    operationRoute(deps.config, 'getApplication', {
      guard: 'admin', scope: 'read', summary: 'Read an application with its versions and files',
      application: inParams('applicationId'),
      status: 200,
      handle: async ({ params, query }) => {
        const { application, versions: list } = await applications.get(params.applicationId, query.includeDeleted);
        return presentApplicationWithVersions(application, list);
      },
    }),
    operationRoute(deps.config, 'updateApplication', {
      guard: 'admin', scope: 'manage', summary: 'Change an application',
      application: inParams('applicationId'), audit: { action: 'application.update', target: inParams('applicationId') },
      status: 200,
      handle: async ({ params, body }) => presentApplication(await applications.update(params.applicationId, body)),
    }),
    operationRoute(deps.config, 'deleteApplication', {
      guard: 'admin', scope: 'manage', summary: 'Soft-delete an application',
      description: 'The application keeps its data and statistics, reads isActive false, and disappears from listings and from every customer endpoint '
        + '(its share links answer 404). Deleting again is 404. Its published bytes stay until it is purged (POST .../purge).',
      application: inParams('applicationId'), audit: { action: 'application.delete', target: inParams('applicationId') },
      status: 200,
      handle: async ({ params }) => presentDeletedApplication(await applications.softDelete(params.applicationId)),
    }),
    operationRoute(deps.config, 'restoreApplication', {
      guard: 'admin', scope: 'manage', summary: 'Restore a soft-deleted application',
      description: 'Refused with 409 when the application is not deleted, or when its releases were purged.',
      application: inParams('applicationId'), audit: { action: 'application.restore', target: inParams('applicationId') },
      status: 200,
      handle: async ({ params }) => presentApplication(await applications.restore(params.applicationId)),
    }),
    operationRoute(deps.config, 'setApplicationLogo', {
      guard: 'admin', scope: 'manage',
      summary: `Set the logo the customer portal shows: the image's raw bytes (${LOGO_CONTENT_TYPES.join(', ')}), replacing any logo before`,
      description: 'Any other type, SVG included (it can carry script), is 415; bytes whose signature is not the declared type are 400; more than '
        + 'the limit is 413, on the declared length before a byte is read. The bytes are stored under a key of their SHA-256; a replaced '
        + "logo's bytes are deleted once the record points at the new ones.",
      application: inParams('applicationId'), audit: { action: 'application.setLogo', target: inParams('applicationId') },
      status: 200,
      handle: async ({ params }, ctx) => {
        // The type is checked before a byte is read; the bytes are checked against it once read.
        const declared = logos.admitType(ctx.get('Content-Type') || undefined);
        return presentApplication(await logos.set(params.applicationId, declared, await receiveLogoBytes(ctx)));
      },
    }),
    operationRoute(deps.config, 'getAdminApplicationLogo', {
      guard: 'admin', scope: 'read',
      summary: "The application's logo, the image itself (ETag: its SHA-256), as the console previews it; 404 when it has none",
      application: inParams('applicationId'),
      status: [200, 304],
      handle: async ({ params }, ctx) => logos.answer(ctx, params.applicationId, (await applications.require(params.applicationId)).logo),
    }),
    operationRoute(deps.config, 'removeApplicationLogo', {
      guard: 'admin', scope: 'manage', summary: "Remove the application's logo",
      description: 'An application without a logo is no change.',
      application: inParams('applicationId'), audit: { action: 'application.removeLogo', target: inParams('applicationId') },
      status: 200,
      handle: async ({ params }) => presentApplication(await logos.remove(params.applicationId)),
    }),
    operationRoute(deps.config, 'listVersions', {
      guard: 'admin', scope: 'read', summary: "List an application's versions with their files, newest first by the version order",
      application: inParams('applicationId'),
      status: 200,
      handle: async ({ params, query }) => {
        const { application, versions: list } = await versions.list(params.applicationId, query);
        return presentVersionList(list, application);
      },
    }),
    operationRoute(deps.config, 'updateVersion', {
      guard: 'admin', scope: 'publish', summary: "Change a version's channel, status (publish, yank, un-yank), rollout, required tier or release notes",
      application: inParams('applicationId'),
      audit: { action: 'version.update', target: [inParams('applicationId'), inParams('version')] },
      status: 200, failures: [409, 422],
      handle: async ({ params, body }) => {
        const { application, version } = await versions.update(params.applicationId, params.version, body);
        return presentVersion(version, application);
      },
    }),
    operationRoute(deps.config, 'getAdminFileDownloadUrl', {
      guard: 'admin', scope: 'read',
      summary: 'A pre-signed download URL for any available file, drafts included, to test a release (not counted as a download)',
      application: inParams('applicationId'),
      status: 200,
      handle: async ({ params }) => presentDownload(await adminDownloadUrl(deps.store, deps.storage, params.applicationId, params.version, params.fileId)),
    }),
    operationRoute(deps.config, 'deleteDraftVersion', {
      guard: 'admin', scope: 'publish', summary: 'Delete a draft version with its files and their bytes (a published or yanked version is refused: yank it)',
      application: inParams('applicationId'),
      audit: { action: 'version.delete', target: [inParams('applicationId'), inParams('version')] },
      status: 200, failures: [409],
      handle: async ({ params }) => presentDeletedVersion(await versions.delete(params.applicationId, params.version)),
    }),
    operationRoute(deps.config, 'deleteVersionFile', {
      guard: 'admin', scope: 'publish',
      summary: "Delete a file and its bytes: a failed upload's file in any version, any file of a draft (a shipped version's files are refused: yank it)",
      application: inParams('applicationId'),
      audit: { action: 'file.delete', target: [inParams('applicationId'), inParams('version'), inParams('fileId')] },
      status: 200, failures: [409],
      handle: async ({ params }) => presentDeletedFile(await versions.deleteFile(params.applicationId, params.version, params.fileId)),
    }),
  ];
};
