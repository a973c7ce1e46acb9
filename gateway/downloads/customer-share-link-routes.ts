import { operationRoute } from '../http/operation-route';
import { entitlementOf,storedWindow } from '../../shared/releases/maintenance-window';
import { conflict } from '../../shared/errors';
import {
presentCreatedCustomerShareLink,
presentCustomerShareLinkList,
presentRevokedShareLink
} from '../../shared/contract/downloads';
import { SHARE_LINK_LIST_MAX } from '../../shared/policy';
import { SHARE_LINKS_PATH } from '../http/loggable-path';
import { inBody,inParams,inResult } from '../http/access';
import type { RouteModule } from '../gateway-deps';
import type { CustomerService } from '../customers/customer-service';
import type { ShareLinkService } from './share-link-service';


/**
 * A customer's share links as the vendor's team manages them (support sending a customer a link, or
 * taking one back): listed with their remaining uses, made on the customer's behalf with the same
 * rules as the customer's own (its access and tier decide), and revoked by id.
 */
export const customerShareLinkRoutes: RouteModule<{ customers: CustomerService; shareLinks: ShareLinkService }> = (deps, { customers, shareLinks }) => [
  operationRoute(deps.config, 'listCustomerShareLinks', {
    guard: 'admin', scope: 'read',
    summary: `A customer's share links, newest first (at most ${SHARE_LINK_LIST_MAX}; expired ones until they are purged)`,
    status: 200,
    handle: async ({ params }) => {
      await customers.get(params.customerId);
      return presentCustomerShareLinkList(await deps.store.shareLinks.listShareLinks(params.customerId, SHARE_LINK_LIST_MAX));
    },
  }),
  operationRoute(deps.config, 'createCustomerShareLink', {
    guard: 'admin', scope: 'manage',
    summary: 'Make a share link on behalf of a customer (its access and tier decide what it may share); the token is shown once',
    application: inBody('applicationId'),
    audit: { action: 'shareLink.create', target: [inParams('customerId'), inResult('shareLinkId')] },
    status: 201, failures: [409, 410],
    handle: async ({ params, body }) => {
      const customer = await customers.get(params.customerId);
      // An inactive customer's links are refused at every use: making one would only mislead.
      if (!customer.isActive) throw conflict(`customer ${customer.customerId} is inactive: activate it before sharing on its behalf`);
      const { token, link } = await shareLinks.create({ customerId: customer.customerId, tier: customer.tier, entitlement: entitlementOf(storedWindow(customer)) }, body);
      return presentCreatedCustomerShareLink(link, token, `${deps.config.publicBaseUrl}${SHARE_LINKS_PATH}/${token}`);
    },
  }),
  operationRoute(deps.config, 'revokeCustomerShareLink', {
    guard: 'admin', scope: 'manage',
    summary: "Revoke one of a customer's share links",
    audit: { action: 'shareLink.revoke', target: [inParams('customerId'), inParams('shareLinkId')] },
    status: 200,
    handle: async ({ params }) => presentRevokedShareLink(await shareLinks.revokeByHash(params.customerId, params.shareLinkId)),
  }),
];
