import type { GatewayDeps } from '../gateway-deps';
import { buildGatewayServices, type GatewayServices } from '../gateway-services';
import type { Route, RouteModule } from '../http/route';
import { downloadRoutes } from '../downloads/download-routes';
import { apiDescriptionRoute } from './api-description-routes';
import { callerRoutes } from './caller-routes';
import { healthRoutes } from './health-routes';
import { landingRoutes } from './landing-routes';
import { adminKeyRoutes } from './management/admin-key-routes';
import { applicationRoutes } from './management/application-routes';
import { customerRoutes } from './management/customer-routes';
import { customerShareLinkRoutes } from './management/customer-share-link-routes';
import { accessTokenRoutes } from './management/access-token-routes';
import { multipartUploadRoutes } from './management/multipart-upload-routes';
import { uploadRoutes } from './management/upload-routes';
import { webhookRoutes } from './management/webhook-routes';
import { signedObjectRoutes } from './signed-object-routes';
import { metricsRoutes } from './metrics-routes';
import { statisticsRoutes } from './statistics-routes';
import { sparkleRoutes } from '../updates/sparkle-routes';
import { updateRoutes } from '../updates/update-routes';
import { packageFeedRoutes } from '../updates/package-feed-routes';

const MODULES: readonly RouteModule[] = [
  downloadRoutes,
  updateRoutes,
  sparkleRoutes,
  packageFeedRoutes,
  healthRoutes,
  callerRoutes,
  landingRoutes,
  applicationRoutes,
  uploadRoutes,
  multipartUploadRoutes,
  customerRoutes,
  customerShareLinkRoutes,
  accessTokenRoutes,
  webhookRoutes,
  statisticsRoutes,
  adminKeyRoutes,
  signedObjectRoutes,
  metricsRoutes,
];

/**
 * Every route the gateway serves, as data: the router, the hot lane and the API description
 * (GET /v1/openapi.json, which describes every route of the table, itself included) are built from it.
 */
export function routeTable(deps: GatewayDeps, services: GatewayServices = buildGatewayServices(deps)): readonly Route[] {
  const routes = MODULES.flatMap((module) => module(deps, services));
  return [...routes, apiDescriptionRoute(deps, routes)];
}
