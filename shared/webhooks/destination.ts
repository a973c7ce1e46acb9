import { lookup as dnsLookup } from 'node:dns/promises';
import net from 'node:net';
import { addressProblem, destinationUrlProblem, hostOf } from './destination-rules';

/**
 * Where webhooks may go. Only https, except http to a host named in WEBHOOK_ALLOWED_HOSTS; and only
 * to public unicast addresses, except a host so named (by the name or the address in the URL, which
 * may then be anything): the URL's rules are destination-rules.ts's. A host name is checked after it is resolved, at every attempt, and the
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
