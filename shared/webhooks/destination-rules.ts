import ipaddr from 'ipaddr.js';
import { WEBHOOK_URL_MAX_LENGTH } from '../policy';
import { characterCount } from '../text-length';

/*
 * The rules a webhook URL is held to when it is registered, without resolving it (no Node API, so the
 * contract's request schemas carry them anywhere); destination.ts resolves a name and checks its
 * addresses at every delivery.
 */

/** The URL's host as the allow-list names it: lowercase, IPv6 without brackets. */
export const hostOf = (url: URL): string => url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');

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
  if (isAddress(host) && !allowed) {
    const problem = addressProblem(host);
    if (problem) return problem;
  }
  return null;
}

/** Whether a URL's host (as hostOf gives it: an IPv4 address the URL parser wrote in dotted decimal, or IPv6) is an address rather than a name. */
const isAddress = (host: string): boolean => ipaddr.IPv4.isValidFourPartDecimal(host) || ipaddr.IPv6.isValid(host);

/** Why an address of a host not allow-listed may not be reached, or null: anything but public unicast. */
export function addressProblem(address: string): string | null {
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
