import type { DistributionEvent } from '../../shared/store/models';
import { respond } from '../http/respond';
import { validate } from '../http/validate';
import { activityQuery, statisticsParams, statisticsQuery } from '../schemas/statistics-schemas';
import { StatisticsService } from '../services/statistics-service';
import type { RouteModule } from './api-routes';

/** Download statistics (spec 4.10) and the activity feed (4.11), both admin-only. */
export const statisticsRoutes: RouteModule = (router, deps, { admin }) => {
  const statistics = new StatisticsService(deps.store);

  router.get('/applications/:applicationId/stats', admin, async (ctx) => {
    const { applicationId } = validate(statisticsParams, ctx.params);
    respond(ctx, await statistics.statistics(applicationId, validate(statisticsQuery, ctx.query)));
  });

  router.get('/activity', admin, async (ctx) => {
    const page = await statistics.activity(validate(activityQuery, ctx.query));
    respond(ctx, {
      activities: page.events.map(presentActivity),
      pagination: { hasMore: page.hasMore, nextCursor: page.nextCursor },
    });
  });
};

function presentActivity(event: DistributionEvent) {
  return {
    eventId: event.eventId,
    type: event.type,
    applicationId: event.applicationId,
    version: event.version,
    fileId: event.fileId,
    customerId: event.customerId,
    clientIp: event.clientIp,
    userAgent: event.userAgent,
    timestamp: event.timestamp.toISOString(),
  };
}
