import type Router from '@koa/router';
import type { ParameterizedContext } from 'koa';

export type AdminPrincipal = { kind: 'admin' };
export type CustomerPrincipal = { kind: 'customer'; customerId: string; keyId: string; tier: string };
export type Principal = AdminPrincipal | CustomerPrincipal;

export interface AppState {
  requestId: string;
  principal?: Principal;
}

export type AppContext = ParameterizedContext<AppState, Router.RouterParamContext<AppState>>;
export type AppRouter = Router<AppState>;
