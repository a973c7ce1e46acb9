// What the signed-in key may do, asked of the service (GET /v1/me) rather than guessed, so every page
// shows an action only to a key that holds its scope, and says why it is unavailable otherwise.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { callerResponse } from '../../shared/contract/caller';
import { ApiError, client, clientWith, type Wire } from '../common/api';

export type Caller = Wire<typeof callerResponse>;
export type AdminCaller = Extract<Caller, { kind: 'admin' }>;
export type Scope = AdminCaller['scopes'][number];

export interface Permission {
  allowed: boolean;
  /** Why not, in words for the person in front of the page. */
  reason: string;
}

/** Whether `caller` may act with `scope` on `applicationId` (when the action concerns one). */
export function permission(caller: AdminCaller, scope: Scope, applicationId?: string): Permission {
  const holds = caller.scopes.includes(scope) || caller.scopes.includes('admin');
  if (!holds) return { allowed: false, reason: `Your key lacks the ${scope} scope.` };
  if (applicationId !== undefined && caller.applicationIds !== null && !caller.applicationIds.includes(applicationId)) {
    return { allowed: false, reason: 'Your key is limited to other applications.' };
  }
  if (applicationId === undefined && scope !== 'read' && caller.applicationIds !== null && scope === 'manage') {
    return { allowed: false, reason: 'Your key is limited to some applications.' };
  }
  return { allowed: true, reason: '' };
}

export const CallerContext = createContext<AdminCaller | null>(null);

/** The signed-in admin key; pages are only rendered once it is known. */
export function useCaller(): AdminCaller {
  const caller = useContext(CallerContext);
  if (!caller) throw new Error('useCaller outside a signed-in console');
  return caller;
}

export function usePermission(scope: Scope, applicationId?: string): Permission {
  return permission(useCaller(), scope, applicationId);
}

/** Asks the service whose the key is: only an admin key opens the console. */
export async function checkKey(key?: string): Promise<AdminCaller> {
  const caller = await (key ? clientWith(() => key) : client).getCaller();
  if (caller.kind !== 'admin') throw new ApiError(403, 'FORBIDDEN', 'this is a customer key: the console needs an admin key (customers use the download portal at /portal)');
  return caller;
}
