import { z } from 'zod';
import { updateReportResponse } from '../../shared/contract/rollouts';
import { newId } from '../../shared/ids';
import { UPDATE_REPORT_INSTALL_ID_MAX_LENGTH, UPDATE_REPORT_MESSAGE_MAX_LENGTH } from '../../shared/policy';
import { UPDATE_REPORT_EVENTS } from '../../shared/store/models';
import { applicationIdField, atMostCharacters, paragraphs, versionField } from '../../shared/contract/fields';
import { route } from '../http/route';
import type { RouteModule } from '../gateway-deps';

const reportParams = z.object({ applicationId: applicationIdField });

/** What an app reports: the update it was making and what happened; bounded, strict (an unknown field is refused). */
const reportBody = z.object({
  installId: atMostCharacters(z.string().min(1, 'must not be empty').regex(/^[\x21-\x7e]+$/, 'must be printable characters without spaces'), UPDATE_REPORT_INSTALL_ID_MAX_LENGTH).optional(),
  fromVersion: versionField,
  toVersion: versionField,
  event: z.enum(UPDATE_REPORT_EVENTS, { errorMap: () => ({ message: `must be one of: ${UPDATE_REPORT_EVENTS.join(', ')}` }) }),
  message: paragraphs(UPDATE_REPORT_MESSAGE_MAX_LENGTH).optional(),
}).strict();

/**
 * Reports an installed app sends about an update (a failed download or install, an update started),
 * with the customer's key (or under /t/{token}/) and its rate limit: counted in the release's health
 * (failure reports halt a rollout plan past its bar), never trusted for anything else. Only an
 * application the caller may have takes them.
 */
export const updateReportRoutes: RouteModule = (deps) => [
  route({
    method: 'post', path: '/v1/updates/:applicationId/reports', operationId: 'reportUpdate', guard: 'customer', noStore: true,
    summary: 'An installed app reports an update that failed to download or install, or started: counted in the release\'s health',
    params: reportParams, body: reportBody,
    status: 202, response: updateReportResponse,
    handle: async ({ params, body }, _ctx, customer) => {
      await deps.releaseCatalog.application(customer, params.applicationId);
      await deps.store.funnel.insertUpdateReport({
        reportId: newId('rep'), applicationId: params.applicationId, customerId: customer.customerId, installId: body.installId ?? null,
        fromVersion: body.fromVersion, toVersion: body.toVersion, event: body.event, message: body.message ?? null, receivedAt: new Date(deps.clock.now()),
      });
      return { received: true as const };
    },
  }),
];
