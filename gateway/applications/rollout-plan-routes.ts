import { operationRoute } from '../http/operation-route';
import { conflict, notFound } from '../../shared/errors';
import { presentRolloutPlan } from '../../shared/contract/rollouts';
import { funnelDays, funnelFigures } from '../../shared/rollouts/funnel';
import type { RolloutPlanRecord } from '../../shared/store/models';
import type { Store } from '../../shared/store/store';
import { TOP_FAILURE_MESSAGES } from '../../shared/policy';
import { linkedInstallOffers } from '../../shared/rollouts/download-links';
import { inParams } from '../http/access';
import type { RouteModule } from '../gateway-deps';
import type { ApplicationService } from './application-service';

const HOUR_MS = 3_600_000;

/** A release's health and its rollout plan: read it, resume a halted plan, stop one. */
export const rolloutPlanRoutes: RouteModule<{ applications: ApplicationService }> = (deps, { applications }) => {
  const plans = (applicationId: string, version: string) => requirePlan(deps.store, applicationId, version);
  return [
    operationRoute(deps.config, 'getVersionHealth', {
      guard: 'admin', scope: 'read',
      summary: "A release's update funnel (offered, downloaded, arrived, stuck, success rate), per day of offer, and its rollout plan",
      application: inParams('applicationId'),
      status: 200,
      handle: async ({ params }) => {
        await applications.require(params.applicationId);
        const { applicationId, version } = params;
        if (!(await deps.store.versions.getVersion(applicationId, version))) throw notFound(`version ${version} of ${applicationId} not found`);
        const now = new Date(deps.clock.now());
        const windowMs = deps.config.updateArrivalWindowHours * HOUR_MS;
        const offers = await linkedInstallOffers(deps.store, applicationId, version, windowMs);
        const figures = { ...funnelFigures(offers, now, windowMs), failureReports: await deps.store.funnel.countFailureReports(applicationId, version) };
        const topFailureMessages = await deps.store.funnel.topFailureMessages(applicationId, version, TOP_FAILURE_MESSAGES);
        const days = funnelDays(offers, now, windowMs);
        const plan = await deps.store.rolloutPlans.getRolloutPlan(applicationId, version);
        return {
          applicationId, version, arrivalWindowHours: deps.config.updateArrivalWindowHours, figures, days, topFailureMessages,
          rolloutPlan: plan ? presentRolloutPlan(plan) : null,
        };
      },
    }),
    operationRoute(deps.config, 'resumeVersionRollout', {
      guard: 'admin', scope: 'publish',
      summary: "Run a halted rollout plan again from its step (it halts again while the health stays below its bar)",
      application: inParams('applicationId'),
      audit: { action: 'version.rolloutResumed', target: [inParams('applicationId'), inParams('version')] },
      status: 200, failures: [409],
      handle: async ({ params }) => {
        await applications.require(params.applicationId);
        const plan = await plans(params.applicationId, params.version);
        if (!(await deps.store.rolloutPlans.resumeRolloutPlan(params.applicationId, params.version, new Date(deps.clock.now())))) {
          throw conflict(`the rollout plan of ${params.version} is ${plan.status}: only a halted plan is resumed`);
        }
        return presentRolloutPlan(await plans(params.applicationId, params.version));
      },
    }),
    operationRoute(deps.config, 'stopVersionRollout', {
      guard: 'admin', scope: 'publish',
      summary: 'Stop a rollout plan for good: the version stays at its percentage (yank it, or set a percentage, to change that)',
      application: inParams('applicationId'),
      audit: { action: 'version.rolloutStopped', target: [inParams('applicationId'), inParams('version')] },
      status: 200, failures: [409],
      handle: async ({ params }) => {
        await applications.require(params.applicationId);
        await plans(params.applicationId, params.version);
        if (!(await deps.store.rolloutPlans.stopRolloutPlan(params.applicationId, params.version, new Date(deps.clock.now())))) {
          throw conflict(`the rollout plan of ${params.version} is stopped already`);
        }
        return presentRolloutPlan(await plans(params.applicationId, params.version));
      },
    }),
  ];
};

async function requirePlan(store: Store, applicationId: string, version: string): Promise<RolloutPlanRecord> {
  const plan = await store.rolloutPlans.getRolloutPlan(applicationId, version);
  if (!plan) throw notFound(`version ${version} of ${applicationId} has no rollout plan`);
  return plan;
}
