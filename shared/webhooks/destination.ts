import { lookup as dnsLookup } from 'node:dns/promises';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { WEBHOOK_URL_MAX_LENGTH } from '../policy';
import { characterCount } from '../text-length';

/**
 * Where webhooks may go. Only https, except http to a host named in WEBHOOK_ALLOWED_HOSTS; and only
 * to public unicast addresses, except a host so named (by the name or the address in the URL, which
 * may then be anything). A host name is checked after it is resolved, at every attempt, and the
 * connection goes to the address that was checked: a name that resolves elsewhere the next time (DNS
 * rebinding) gains nothing. An allowed address is no pass for other names that resolve to it.
 */
export class DestinationRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DestinationRefusedError';
  }
}

export interface ResolvedDestination {
  url: URL;
  /** The checked address the connection must go to. */
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** The URL's host as the allow-list names it: lowercase, IPv6 without brackets. */
const hostOf = (url: URL): string => url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');

/** A DNS name of ASCII labels whose last label starts with a letter (so no URL parser reads it as an IPv4 address), no label an IDNA one. */
const HOST_NAME = '(?:(?![Xx][Nn]--)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)*(?![Xx][Nn]--)[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
/** A port, a path and a query of RFC 3986 characters, and no fragment. */
const PORT_PATH_QUERY = "(?::[1-9][0-9]{0,3})?(?:/[A-Za-z0-9._~!$&'()*+,;=:@/-]*)?(?:\\?[A-Za-z0-9._~!$&'()*+,;=:@/?-]*)?";
const escapedHost = (host: string) => {
  const escaped = host.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return host.includes(':') ? `\\[${escaped}\\]` : escaped;
};

/**
 * The URLs destinationUrlProblem allows, as a regular expression for the API description: https to a
 * host name, or http and https to a host of `allowedHosts`. Narrower than the rule (a public address
 * written as such is allowed too): every URL it matches is allowed.
 */
export function destinationUrlPattern(allowedHosts: readonly string[]): string {
  const allowed = allowedHosts.map(escapedHost).join('|');
  const hosts = allowed === '' ? `https://${HOST_NAME}` : `(?:https://(?:${HOST_NAME}|${allowed})|http://(?:${allowed}))`;
  return `^${hosts}${PORT_PATH_QUERY}$`;
}

/** Why a URL can never be delivered to, or null: checked when an endpoint is registered or changed. */
export function destinationUrlProblem(value: string, allowedHosts: readonly string[]): string | null {
  if (characterCount(value) > WEBHOOK_URL_MAX_LENGTH) return `must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an https URL';
  if (url.username !== '' || url.password !== '') return 'must not carry credentials';
  if (url.hash !== '') return 'must not have a fragment';
  const host = hostOf(url);
  const allowed = allowedHosts.includes(host);
  if (url.protocol === 'http:' && !allowed) return 'must be an https URL (http only to hosts in WEBHOOK_ALLOWED_HOSTS)';
  if (net.isIP(host) !== 0 && !allowed) {
    const problem = addressProblem(host);
    if (problem) return problem;
  }
  return null;
}

/**
 * Resolves the URL's host and checks every address it gives (one refused address refuses the name:
 * which one a client would pick is not ours to know); throws DestinationRefusedError when the
 * destination is not allowed.
 */
export async function resolveDestination(value: string, allowedHosts: readonly string[], resolve: Resolver = systemResolver): Promise<ResolvedDestination> {
  const problem = destinationUrlProblem(value, allowedHosts);
  if (problem) throw new DestinationRefusedError(`the URL ${problem}`);
  const url = new URL(value);
  const host = hostOf(url);
  const addresses = net.isIP(host) !== 0 ? [{ address: host, family: net.isIP(host) }] : await resolveName(host, resolve);
  if (addresses.length === 0) throw new DestinationRefusedError(`${host} resolves to no address`);
  if (!allowedHosts.includes(host)) {
    for (const { address } of addresses) {
      const refused = addressProblem(address);
      if (refused) throw new DestinationRefusedError(`${host} resolves to ${address}, which ${refused.replace(/^must not be/, 'is')}`);
    }
  }
  const [first] = addresses;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

async function resolveName(host: string, resolve: Resolver): Promise<{ address: string; family: number }[]> {
  try {
    return await resolve(host);
  } catch (error) {
    throw new DestinationRefusedError(`${host} could not be resolved (${(error as NodeJS.ErrnoException).code ?? 'lookup failed'})`);
  }
}

/** Why an address of a host not allow-listed may not be reached, or null: anything but public unicast. */
function addressProblem(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'must be a valid address';
  // IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) are judged as the IPv4 address they carry.
  const range = ipaddr.process(address).range();
  if (range === 'unicast') return null;
  return `must not be a ${RANGE_NAMES[range] ?? `${range} address`}`;
}

const RANGE_NAMES: Record<string, string> = {
  private: 'private address',
  loopback: 'loopback address',
  linkLocal: 'link-local address',
  uniqueLocal: 'unique-local (private) address',
  unspecified: 'unspecified address',
  multicast: 'multicast address',
  broadcast: 'broadcast address',
  carrierGradeNat: 'carrier-grade NAT address',
  reserved: 'reserved address',
};
