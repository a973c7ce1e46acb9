import type Router from '@koa/router';
import type { ParameterizedContext } from 'koa';
import type { Scope } from '../../shared/scopes';
import type { AccessToken } from '../../shared/store/models';
import type { Entitlement } from '../../shared/releases/maintenance-window';

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
/**
 * A customer key's holder, or an access token's (`keyId` its tokenId, `token` what it is limited to);
 * `entitlement`: the maintenance window the customer (and the token) limits releases to, when any.
 */
export type CustomerPrincipal = { kind: 'customer'; customerId: string; keyId: string; tier: string; token?: TokenGrant; entitlement?: Entitlement };
export type Principal = AdminPrincipal | CustomerPrincipal;

/** What a request made with an access token carries: the token as it stands, and the key its client addresses are hashed with. */
export interface TokenGrant {
  record: AccessToken;
  clientKey: Buffer;
}

/**
 * Who may call a route (auth/guards.ts admits it): an admin key, a customer key, either kind of key
 * (`key`: what a caller asks about itself), the metrics token (the Prometheus scrape), or anyone
 * (share-link uses, health, signed object URLs, the API description). An admin route also declares
 * the scope it needs (route.ts).
 */
export type Guard = 'admin' | 'customer' | 'key' | 'metrics' | 'none';

/** The caller a route's handler is given, by its guard. */
export type CallerOf<G extends Guard> = G extends 'admin' ? AdminPrincipal : G extends 'customer' ? CustomerPrincipal : G extends 'key' ? Principal : undefined;

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
