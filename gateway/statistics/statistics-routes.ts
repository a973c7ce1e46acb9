import { inParams, inQuery } from '../http/access';
import { route} from '../http/route';
import type { RouteModule } from '../gateway-deps';
import type { StatisticsService } from './statistics-service';
import type { AdoptionService } from './adoption-service';
import { activityPageResponse, presentActivityPage, presentStatistics, statisticsResponse } from '../../shared/contract/statistics';
import { activityQuery, adoptionQuery, customerAdoptionQuery, statisticsParams, statisticsQuery } from '../../shared/contract/statistics-requests';
import { adoptionResponse, customerAdoptionListResponse, presentAdoption, presentCustomerAdoptionList } from '../../shared/contract/adoption';

/** Download statistics, adoption and the activity feed, all admin-only. */
export const statisticsRoutes: RouteModule<{ statistics: StatisticsService; adoption: AdoptionService }> = (deps, { statistics, adoption }) => {

  return [
    route({
      method: 'get', path: '/v1/applications/:applicationId/stats', operationId: 'getApplicationStatistics', guard: 'admin', scope: 'read', summary: "An application's downloads by version, platform and UTC day",
      application: inParams('applicationId'),
      params: statisticsParams, query: statisticsQuery(deps.config.channels),
      status: 200, response: statisticsResponse,
      handle: async ({ params, query }) => presentStatistics(await statistics.statistics(params.applicationId, query)),
    }),
    route({
      method: 'get', path: '/v1/applications/:applicationId/adoption', operationId: 'getApplicationAdoption', guard: 'admin', scope: 'read',
      summary: "Per UTC day an application's update checks, estimated active installs and installs by running version; per release the days to reach 50% and 90%",
      application: inParams('applicationId'),
      params: statisticsParams, query: adoptionQuery(deps.config.channels),
      status: 200, response: adoptionResponse,
      handle: async ({ params, query }) => presentAdoption(await adoption.adoption(params.applicationId, query)),
    }),
    route({
      method: 'get', path: '/v1/applications/:applicationId/customers/adoption', operationId: 'listCustomerAdoption', guard: 'admin', scope: 'read',
      summary: 'Per customer, the versions its installs last reported running and when',
      application: inParams('applicationId'),
      params: statisticsParams, query: customerAdoptionQuery,
      status: 200, response: customerAdoptionListResponse,
      handle: async ({ params, query }) => {
        const { items, total } = await adoption.customers(params.applicationId, query.page, query.pageSize);
        return presentCustomerAdoptionList(items, query.page, query.pageSize, total);
      },
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
