import type { AppState } from './context';

/** The path form of an access token: `/t/{token}` in front of a download or update route. */
export const TOKEN_PATH_PREFIX = '/t/';

/**
 * The base of the absolute links an answer gives its caller: the public base URL, followed by the
 * caller's path token when it came through one, so a client that sends no header (Squirrel.Windows,
 * a browser following a portal link) reaches the linked files with the same credential.
 */
export function callerBaseUrl(publicBaseUrl: string, state: Pick<AppState, 'pathToken'>): string {
  return state.pathToken ? `${publicBaseUrl}${TOKEN_PATH_PREFIX}${encodeURIComponent(state.pathToken)}` : publicBaseUrl;
}
