/**
 * What an admin key may do. `publish`: uploads and version changes; `read`: listings, statistics,
 * activity; `manage`: applications and customers; `admin`: everything, admin keys and the audit log
 * included. The keys of ADMIN_API_KEYS are root keys: every scope, every application.
 */
export const SCOPES = ['publish', 'read', 'manage', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

/** Whether keys holding `held` may call a route that needs `needed`: `admin` holds every scope. */
export function grants(held: readonly Scope[], needed: Scope): boolean {
  return held.includes(needed) || held.includes('admin');
}
