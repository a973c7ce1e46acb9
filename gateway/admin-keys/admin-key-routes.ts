import { inParams, inResult } from '../http/access';
import { route} from '../http/route';
import type { RouteModule } from '../gateway-deps';
import type { AdminKeyService } from './admin-key-service';
import type { AuditService } from './audit-service';
import {
  adminKeyListResponse,
  issuedAdminKeyResponse,
  presentAdminKeyList,
  presentIssuedAdminKey,
  presentRevokedAdminKey,
  revokedAdminKeyResponse,
} from '../../shared/contract/admin-keys';
import { auditPageResponse, presentAuditPage } from '../../shared/contract/audit';
import { adminKeyParams, createAdminKeySchema } from '../../shared/contract/admin-keys-requests';
import { auditQuery } from '../../shared/contract/audit-requests';

const ADMIN_KEYS = '/v1/management/apikeys';

/** Scoped admin keys and the audit log: the `admin` scope's own routes. The full key appears only in the response that issues it. */
export const adminKeyRoutes: RouteModule<{ adminKeys: AdminKeyService; audit: AuditService }> = (_deps, { adminKeys: keys, audit }) => {

  return [
    route({
      method: 'post', path: ADMIN_KEYS, operationId: 'createAdminKey', guard: 'admin', scope: 'admin', summary: 'Issue a scoped admin key',
      audit: { action: 'adminKey.create', target: inResult('keyId') },
      body: createAdminKeySchema,
      status: 201, response: issuedAdminKeyResponse,
      handle: async ({ body }) => presentIssuedAdminKey(await keys.issue(body)),
    }),
    route({
      method: 'get', path: ADMIN_KEYS, operationId: 'listAdminKeys', guard: 'admin', scope: 'admin', summary: 'List the scoped admin keys not revoked, oldest first',
      status: 200, response: adminKeyListResponse,
      handle: async () => presentAdminKeyList(await keys.list()),
    }),
    route({
      method: 'delete', path: `${ADMIN_KEYS}/:keyId`, operationId: 'revokeAdminKey', guard: 'admin', scope: 'admin', summary: 'Revoke a scoped admin key',
      audit: { action: 'adminKey.revoke', target: inParams('keyId') },
      params: adminKeyParams,
      status: 200, response: revokedAdminKeyResponse,
      handle: async ({ params }) => presentRevokedAdminKey(await keys.revoke(params.keyId)),
    }),
    route({
      method: 'get', path: '/v1/management/audit', operationId: 'listAuditEntries', guard: 'admin', scope: 'admin', summary: 'Management writes, newest first, paged by cursor',
      query: auditQuery,
      status: 200, response: auditPageResponse,
      handle: async ({ query }) => presentAuditPage(await audit.list(query)),
    }),
  ];
};
