import { operationRoute } from '../http/operation-route';
import { inParams,inQuery } from '../http/access';
import type { RouteModule } from '../gateway-deps';
import type { StatisticsService } from './statistics-service';
import type { AdoptionService } from './adoption-service';
import { presentActivityPage,presentStatistics } from '../../shared/contract/statistics';
import { presentAdoption,presentCustomerAdoptionList } from '../../shared/contract/adoption';

/** Download statistics, adoption and the activity feed, all admin-only. */
export const statisticsRoutes: RouteModule<{ statistics: StatisticsService; adoption: AdoptionService }> = (deps, { statistics, adoption }) => {

  return [
    operationRoute(deps.config, 'getApplicationStatistics', {
      guard: 'admin', scope: 'read', summary: "An application's downloads by version, platform and UTC day",
      application: inParams('applicationId'),
      status: 200,
      handle: async ({ params, query }) => presentStatistics(await statistics.statistics(params.applicationId, query)),
    }),
    operationRoute(deps.config, 'getApplicationAdoption', {
      guard: 'admin', scope: 'read',
      summary: "Per UTC day an application's update checks, estimated active installs and installs by running version; per release the days to reach 50% and 90%",
      application: inParams('applicationId'),
      status: 200,
      handle: async ({ params, query }) => presentAdoption(await adoption.adoption(params.applicationId, query)),
    }),
    operationRoute(deps.config, 'listCustomerAdoption', {
      guard: 'admin', scope: 'read',
      summary: 'Per customer, the versions its installs last reported running and when',
      application: inParams('applicationId'),
      status: 200,
      handle: async ({ params, query }) => {
        const { items, total } = await adoption.customers(params.applicationId, query.page, query.pageSize);
        return presentCustomerAdoptionList(items, query.page, query.pageSize, total);
      },
    }),
    operationRoute(deps.config, 'listActivity', {
      guard: 'admin', scope: 'read', summary: 'Uploads and downloads, newest first, paged by cursor',
      application: inQuery('applicationId'),
      status: 200,
      handle: async ({ query }) => presentActivityPage(await statistics.activity(query)),
    }),
  ];
};
