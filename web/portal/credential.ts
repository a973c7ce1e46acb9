// The customer's credential for this tab: its API key (typed at sign-in) or an access token (from a
// portal link, `/portal#token=<token>`: the fragment never reaches a server or its logs). Kept in
// sessionStorage only, cleared at sign-out.
import { clientWith, type Client } from '../common/api';

export type Credential = { kind: 'key'; key: string } | { kind: 'token'; token: string };

const STORE = 'bds.portal.credential';

export function storedCredential(): Credential | null {
  const text = sessionStorage.getItem(STORE);
  if (!text) return null;
  try {
    return JSON.parse(text) as Credential;
  } catch {
    return null;
  }
}

export function keepCredential(credential: Credential): void {
  sessionStorage.setItem(STORE, JSON.stringify(credential));
}

export function forgetCredential(): void {
  sessionStorage.removeItem(STORE);
}

/** A portal link's token, taken out of the address bar at once so it is not bookmarked or shared by accident. */
export function tokenFromLink(): string | null {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  const token = params.get('token');
  if (token) history.replaceState(null, '', location.pathname + location.search);
  return token;
}

/**
 * A customer route as a link outside the page reaches it: a token in the path (`/t/{token}/v1/...`,
 * the form every download and update route takes); with a key the path alone (the key goes in a header).
 */
export function customerPath(credential: Credential, path: string): string {
  return credential.kind === 'token' ? `/t/${encodeURIComponent(credential.token)}${path}` : path;
}

/** What the credential sends as its bearer header: the key, or the token. */
export const bearerOf = (credential: Credential): string => (credential.kind === 'key' ? credential.key : credential.token);

const clients = new WeakMap<Credential, Client>();

/**
 * The typed client for a customer's routes, sending the credential always as the bearer header (a
 * token in a header never appears in a request line); the path form is for links a person copies (curl).
 */
export function customerClient(credential: Credential): Client {
  let client = clients.get(credential);
  if (!client) {
    client = clientWith(() => bearerOf(credential));
    clients.set(credential, client);
  }
  return client;
}
