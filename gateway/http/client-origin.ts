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

/**
 * The client's IP address of each connection, normalised once: without TRUST_PROXY it is the
 * socket's peer, the same for every request a kept-alive connection makes (every check and download
 * asks, and Koa's `ctx.ip` reads the forwarding header and the peer again each time).
 */
const peerAddresses = new WeakMap<object, string>();

/** The client's IP address (see clientOrigin), or null when the socket has none any more. */
export function clientAddress(ctx: Context): string | null {
  if (ctx.app.proxy) return normalisedAddress(ctx.ip);
  const { socket } = ctx;
  const known = peerAddresses.get(socket);
  if (known !== undefined) return known;
  const address = normalisedAddress(socket.remoteAddress);
  if (address !== null) peerAddresses.set(socket, address);
  return address;
}

function normalisedAddress(ip: string | undefined): string | null {
  if (!ip) return null;
  // A test then a slice costs a fifth of a replace with a capture (about 0.1 against 0.5 µs).
  return ip.startsWith(IPV4_MAPPED_PREFIX) && IPV4_MAPPED.test(ip) ? ip.slice(IPV4_MAPPED_PREFIX.length) : ip;
}
