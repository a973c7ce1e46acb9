import type { GatewayDeps, RouteModule } from './gateway-deps';
import { buildGatewayServices, type GatewayServices } from './gateway-services';
import type { Route } from './http/route';
import { downloadRoutes } from './downloads/download-routes';
import { apiDescriptionRoutes } from './operations/api-description-routes';
import { callerRoutes } from './operations/caller-routes';
import { healthRoutes } from './operations/health-routes';
import { landingRoutes } from './operations/landing-routes';
import { vendorRoutes } from './operations/vendor-routes';
import { adminKeyRoutes } from './admin-keys/admin-key-routes';
import { attestationRoutes } from './attestations/attestation-routes';
import { applicationRoutes } from './applications/application-routes';
import { releasePurgeRoutes } from './applications/release-purge-routes';
import { rolloutPlanRoutes } from './applications/rollout-plan-routes';
import { customerRoutes } from './customers/customer-routes';
import { customerShareLinkRoutes } from './downloads/customer-share-link-routes';
import { accessTokenRoutes } from './customers/access-token-routes';
import { multipartUploadRoutes } from './uploads/multipart-upload-routes';
import { uploadRoutes } from './uploads/upload-routes';
import { webhookRoutes } from './webhooks/webhook-routes';
import { signedObjectRoutes } from './operations/signed-object-routes';
import { metricsRoutes } from './operations/metrics-routes';
import { statisticsRoutes } from './statistics/statistics-routes';
import { electronRoutes } from './updates/electron/electron-routes';
import { tauriRoutes } from './updates/tauri/tauri-routes';
import { squirrelMacRoutes } from './updates/squirrel-mac/squirrel-mac-routes';
import { sparkleRoutes } from './updates/sparkle/sparkle-routes';
import { squirrelWindowsRoutes } from './updates/squirrel-windows/squirrel-windows-routes';
import { velopackRoutes } from './updates/velopack/velopack-routes';
import { updateReportRoutes } from './updates/update-report-routes';
import { repoRoutes } from './repos/repo-routes';
import { tufRoutes } from './tuf/tuf-routes';

/** Every feature's routes, in the order the router tries them. */
export const ROUTE_MODULES: readonly RouteModule<GatewayServices>[] = [
  downloadRoutes,
  electronRoutes,
  tauriRoutes,
  squirrelMacRoutes,
  updateReportRoutes,
  sparkleRoutes,
  squirrelWindowsRoutes,
  velopackRoutes,
  repoRoutes,
  tufRoutes,
  healthRoutes,
  callerRoutes,
  landingRoutes,
  vendorRoutes,
  applicationRoutes,
  releasePurgeRoutes,
  rolloutPlanRoutes,
  attestationRoutes,
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
 * `modules` are ROUTE_MODULES unless a caller serves more (a test's own feed).
 */
export function routeTable(
  deps: GatewayDeps,
  services: GatewayServices = buildGatewayServices(deps),
  modules: readonly RouteModule<GatewayServices>[] = ROUTE_MODULES,
): readonly Route[] {
  const routes = modules.flatMap((module) => module(deps, services));
  return [...routes, ...apiDescriptionRoutes(deps, routes)];
}
