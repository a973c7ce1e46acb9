import type Router from '@koa/router';
import type { ParameterizedContext } from 'koa';
import type { Scope } from '../../shared/scopes';
import type { TokenGrant } from '../auth/token-admission';

/**
 * An admin key's holder: a root key of ADMIN_API_KEYS (`actor` 'root', every scope and application)
 * or a scoped key (`actor` its keyId).
 */
export type AdminPrincipal = {
  kind: 'admin';
  actor: string;
  scopes: readonly Scope[];
  /** The applications the key is limited to; null for every application. */
  applicationIds: readonly string[] | null;
};
/** A customer key's holder, or an access token's (`keyId` its tokenId, `token` what it is limited to). */
export type CustomerPrincipal = { kind: 'customer'; customerId: string; keyId: string; tier: string; token?: TokenGrant };
export type Principal = AdminPrincipal | CustomerPrincipal;

export interface AppState {
  requestId: string;
  principal?: Principal;
  /** The template of the route that matched (`/v1/things/:thingId`), set by the router or the hot lane. */
  route?: string;
  /**
   * The customer's access token when the caller put it in the path (`/t/{token}/v1/...`) because its
   * client sends no header: a feed's absolute links keep it (callerBaseUrl). Never logged.
   */
  pathToken?: string;
}

export type AppContext = ParameterizedContext<AppState, Router.RouterParamContext<AppState>>;
export type AppRouter = Router<AppState>;
