import { z } from 'zod';
import { SCOPES } from '../scopes';
import type { Entitlement } from '../releases/maintenance-window';
import { timestamp } from './common';

/**
 * Who the presented key belongs to and what it may do, so a console or portal can show only the
 * actions the key is allowed (and say why the others are not).
 */
export const callerResponse = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('admin'),
    /** `root` for a key of ADMIN_API_KEYS, otherwise the scoped key's keyId. */
    actor: z.string(),
    scopes: z.array(z.enum(SCOPES)),
    /** null: every application. */
    applicationIds: z.array(z.string()).nullable(),
    /** The service's customer tiers (lowest first) and release channels (most stable first): what a tier or channel may be. */
    tiers: z.array(z.string()),
    channels: z.array(z.string()),
  }),
  z.object({
    kind: z.literal('customer'),
    customerId: z.string(),
    /** The customer's name, as people read it ("Signed in as Acme Corp"). */
    name: z.string(),
    tier: z.string(),
    /**
     * The maintenance window releases are offered within (the customer's and, with an access token, the
     * token's at once): null when none limits them.
     */
    maintenance: z.object({ updatesUntil: timestamp.nullable(), versionRanges: z.array(z.string()) }).nullable(),
  }),
]);

export type Caller = z.output<typeof callerResponse>;

/** The service's lists an admin chooses from. */
export interface ServiceLists {
  tiers: readonly string[];
  channels: readonly string[];
}

/** The caller as the guard admitted it: never the key itself. */
export function presentCaller(principal: { kind: 'admin'; actor: string; scopes: readonly (typeof SCOPES)[number][]; applicationIds: readonly string[] | null }
  | { kind: 'customer'; customerId: string; tier: string; entitlement?: Entitlement }, lists: ServiceLists, customerName: string | null): z.input<typeof callerResponse> {
  if (principal.kind === 'admin') {
    return {
      kind: 'admin', actor: principal.actor, scopes: [...principal.scopes], applicationIds: principal.applicationIds === null ? null : [...principal.applicationIds],
      tiers: [...lists.tiers], channels: [...lists.channels],
    };
  }
  const window = principal.entitlement;
  return {
    kind: 'customer', customerId: principal.customerId, name: customerName ?? principal.customerId, tier: principal.tier,
    maintenance: window ? { updatesUntil: window.updatesUntil === null ? null : new Date(window.updatesUntil).toISOString(), versionRanges: [...window.ranges] } : null,
  };
}
