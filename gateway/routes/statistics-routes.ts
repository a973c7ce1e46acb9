import { inParams, inQuery } from '../http/access';
import { route, RouteModule } from '../http/route';
import { activityPageResponse, presentActivityPage, presentStatistics, statisticsResponse } from '../../shared/contract/statistics';
import { activityQuery, statisticsParams, statisticsQuery } from '../schemas/statistics-schemas';

/** Download statistics and the activity feed, both admin-only. */
export const statisticsRoutes: RouteModule = (deps, { statistics }) => {

  return [
    route({
      method: 'get', path: '/v1/applications/:applicationId/stats', operationId: 'getApplicationStatistics', guard: 'admin', scope: 'read', summary: "An application's downloads by version, platform and UTC day",
      application: inParams('applicationId'),
      params: statisticsParams, query: statisticsQuery(deps.config.channels),
      status: 200, response: statisticsResponse,
      handle: async ({ params, query }) => presentStatistics(await statistics.statistics(params.applicationId, query)),
    }),
    route({
      method: 'get', path: '/v1/activity', operationId: 'listActivity', guard: 'admin', scope: 'read', summary: 'Uploads and downloads, newest first, paged by cursor',
      application: inQuery('applicationId'),
      query: activityQuery,
      status: 200, response: activityPageResponse,
      handle: async ({ query }) => presentActivityPage(await statistics.activity(query)),
    }),
  ];
};
