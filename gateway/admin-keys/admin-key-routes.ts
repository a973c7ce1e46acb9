import { operationRoute } from '../http/operation-route';
import { inParams,inResult } from '../http/access';
import type { RouteModule } from '../gateway-deps';
import type { AdminKeyService } from './admin-key-service';
import type { AuditService } from './audit-service';
import {
presentAdminKeyList,
presentIssuedAdminKey,
presentRevokedAdminKey
} from '../../shared/contract/admin-keys';
import { presentAuditPage } from '../../shared/contract/audit';


/** Scoped admin keys and the audit log: the `admin` scope's own routes. The full key appears only in the response that issues it. */
export const adminKeyRoutes: RouteModule<{ adminKeys: AdminKeyService; audit: AuditService }> = (deps, { adminKeys: keys, audit }) => {

  return [
    operationRoute(deps.config, 'createAdminKey', {
      guard: 'admin', scope: 'admin', summary: 'Issue a scoped admin key',
      audit: { action: 'adminKey.create', target: inResult('keyId') },
      status: 201,
      handle: async ({ body }) => presentIssuedAdminKey(await keys.issue(body)),
    }),
    operationRoute(deps.config, 'listAdminKeys', {
      guard: 'admin', scope: 'admin', summary: 'List the scoped admin keys not revoked, oldest first',
      status: 200,
      handle: async () => presentAdminKeyList(await keys.list()),
    }),
    operationRoute(deps.config, 'revokeAdminKey', {
      guard: 'admin', scope: 'admin', summary: 'Revoke a scoped admin key',
      audit: { action: 'adminKey.revoke', target: inParams('keyId') },
      status: 200,
      handle: async ({ params }) => presentRevokedAdminKey(await keys.revoke(params.keyId)),
    }),
    operationRoute(deps.config, 'listAuditEntries', {
      guard: 'admin', scope: 'admin', summary: 'Management writes, newest first, paged by cursor',
      status: 200,
      handle: async ({ query }) => presentAuditPage(await audit.list(query)),
    }),
  ];
};
