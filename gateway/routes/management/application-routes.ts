import { inParams, inResult } from '../../http/access';
import { route, RouteModule } from '../../http/route';
import {
  applicationListResponse,
  applicationResponse,
  applicationWithVersionsResponse,
  deletedApplicationResponse,
  presentApplication,
  presentApplicationList,
  presentApplicationWithVersions,
  presentDeletedApplication,
} from '../../presenters/applications';
import { presentVersion, presentVersionList, versionListResponse, versionResponse } from '../../presenters/versions';
import {
  applicationParams,
  createApplicationSchema,
  includeDeletedQuery,
  listApplicationsQuery,
  updateApplicationSchema,
  versionParams,
} from '../../schemas/application-schemas';
import { listVersionsQuery, updateVersionSchema } from '../../schemas/version-schemas';
import { ApplicationService } from '../../services/application-service';
import { VersionService } from '../../services/version-service';

const APPLICATIONS = '/v1/management/applications';
const APPLICATION = `${APPLICATIONS}/:applicationId`;

/** Applications (spec 4.1, 4.2 and the listing, reading, update and restore endpoints) and their versions. */
export const applicationRoutes: RouteModule = (deps) => {
  const applications = new ApplicationService(deps.store, deps.catalog, deps.webhooks);
  const versions = new VersionService(deps.store, applications, deps.webhooks);

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
      method: 'get', path: `${APPLICATION}/versions`, operationId: 'listVersions', guard: 'admin', scope: 'read', summary: "List an application's versions with their files, newest first by the version order",
      application: inParams('applicationId'),
      params: applicationParams, query: listVersionsQuery(deps.config.channels),
      status: 200, response: versionListResponse,
      handle: async ({ params, query }) => presentVersionList(await versions.list(params.applicationId, query)),
    }),
    route({
      method: 'patch', path: `${APPLICATION}/versions/:version`, operationId: 'updateVersion', guard: 'admin', scope: 'publish', summary: "Change a version's channel, status (publish, yank, un-yank), rollout, required tier or release notes",
      application: inParams('applicationId'),
      audit: { action: 'version.update', target: [inParams('applicationId'), inParams('version')] },
      params: versionParams, body: updateVersionSchema(deps.config.tiers, deps.config.channels),
      status: 200, failures: [409], response: versionResponse,
      handle: async ({ params, body }) => presentVersion(await versions.update(params.applicationId, params.version, body)),
    }),
  ];
};
