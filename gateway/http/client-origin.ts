import type { Context } from 'koa';
import type { EventOrigin } from '../../shared/events/event-recorder';
import type { AppState, TokenGrant } from './context';

/** Who made a request, and the access token it was made with, whose limits its download counts against. */
export interface DownloadOrigin extends EventOrigin {
  token?: TokenGrant;
}

/**
 * Who made a request, for events. ctx.ip honours X-Forwarded-For only when TRUST_PROXY is set
 * (app.proxy); IPv4 clients on a dual-stack socket are shown in plain IPv4 form.
 */
export function clientOrigin(ctx: Context, customerId: string | null): DownloadOrigin {
  const principal = (ctx.state as AppState).principal;
  const origin: DownloadOrigin = { customerId, clientIp: clientAddress(ctx), userAgent: ctx.get('User-Agent').slice(0, 512) || null };
  if (principal?.kind === 'customer' && principal.token) origin.token = principal.token;
  return origin;
}

/** An IPv4 client on a dual-stack socket, as Node shows it. */
const IPV4_MAPPED_PREFIX = '::ffff:';
const IPV4_MAPPED = /^::ffff:\d+\.\d+\.\d+\.\d+$/;

/** The client's IP address (see clientOrigin), or null when the socket has none any more. */
export function clientAddress(ctx: Context): string | null {
  const ip = ctx.ip;
  if (!ip) return null;
  // Every check and download asks: the pattern runs only for an address in the mapped form, and a
  // test then a slice costs a fifth of a replace with a capture (about 0.1 against 0.5 µs).
  return ip.startsWith(IPV4_MAPPED_PREFIX) && IPV4_MAPPED.test(ip) ? ip.slice(IPV4_MAPPED_PREFIX.length) : ip;
}

