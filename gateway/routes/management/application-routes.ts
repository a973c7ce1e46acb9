import { ApplicationService } from '../../services/application-service';
import { VersionService } from '../../services/version-service';
import { pagination, presentApplication, presentVersion } from '../../presenters/present';
import { respond } from '../../http/respond';
import { validate } from '../../http/validate';
import { applicationIdField, versionField } from '../../schemas/common';
import {
  createApplicationSchema,
  includeDeletedQuery,
  listApplicationsQuery,
  updateApplicationSchema,
} from '../../schemas/application-schemas';
import { updateVersionSchema } from '../../schemas/version-schemas';
import type { RouteModule } from '../api-routes';
import type { AppContext } from '../../http/context';

const appIdParam = (ctx: AppContext) => validate(applicationIdField, ctx.params.applicationId);

/** Applications (spec 4.1, 4.2 and the listing, reading, update and restore endpoints) and their versions. */
export const applicationRoutes: RouteModule = (router, deps, { admin }) => {
  const applications = new ApplicationService(deps.store, deps.catalog);
  const versions = new VersionService(deps.store, applications);

  router.post('/management/applications', admin, async (ctx) => {
    const body = validate(createApplicationSchema, ctx.request.body);
    respond(ctx, presentApplication(await applications.create(body)), 201);
  });

  router.get('/management/applications', admin, async (ctx) => {
    const query = validate(listApplicationsQuery, ctx.query);
    const page = await applications.list(query);
    respond(ctx, {
      applications: page.items.map(presentApplication),
      pagination: pagination(query.page, query.pageSize, page.total),
    });
  });

  router.get('/management/applications/:applicationId', admin, async (ctx) => {
    const { includeDeleted } = validate(includeDeletedQuery, ctx.query);
    const { application, versions: list } = await applications.get(appIdParam(ctx), includeDeleted);
    respond(ctx, { ...presentApplication(application), versions: list.map(presentVersion) });
  });

  router.patch('/management/applications/:applicationId', admin, async (ctx) => {
    const applicationId = appIdParam(ctx);
    const patch = validate(updateApplicationSchema, ctx.request.body);
    respond(ctx, presentApplication(await applications.update(applicationId, patch)));
  });

  router.delete('/management/applications/:applicationId', admin, async (ctx) => {
    const deleted = await applications.softDelete(appIdParam(ctx));
    respond(ctx, {
      message: `application ${deleted.applicationId} deleted`,
      applicationId: deleted.applicationId,
      deletedAt: deleted.deletedAt?.toISOString(),
    });
  });

  router.post('/management/applications/:applicationId/restore', admin, async (ctx) => {
    respond(ctx, presentApplication(await applications.restore(appIdParam(ctx))));
  });

  router.get('/management/applications/:applicationId/versions', admin, async (ctx) => {
    const list = await versions.list(appIdParam(ctx));
    respond(ctx, { versions: list.map(presentVersion) });
  });

  router.patch('/management/applications/:applicationId/versions/:version', admin, async (ctx) => {
    const applicationId = appIdParam(ctx);
    const version = validate(versionField, ctx.params.version);
    const patch = validate(updateVersionSchema(deps.config.tiers), ctx.request.body);
    respond(ctx, presentVersion(await versions.update(applicationId, version, patch)));
  });
};
