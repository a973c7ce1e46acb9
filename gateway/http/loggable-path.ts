/** Where share links are created and used (downloads/): a log never shows the token after it. */
export const SHARE_LINKS_PATH = '/v1/downloads/share';

/** A share link's path, whatever its case (the router matches it so), up to its bearer token. */
const SHARE_LINK_TOKEN = new RegExp(`^(${SHARE_LINKS_PATH.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/)[^/]+`, 'i');

/** An access token in front of a path (`/t/{token}/...`), up to the next '/'. */
const PATH_TOKEN = /^(\/t\/)[^/]*/i;

/**
 * A request path as it may be logged: the query string is never part of it (it may hold a URL
 * signature), and a share link's token or an access token in the path is replaced, so a log reader
 * cannot download with it. One regular-expression test per request; the path itself is returned when
 * nothing is secret.
 */
export function loggablePath(path: string): string {
  const token = PATH_TOKEN.exec(path);
  if (token) return `${token[1]}[redacted]${loggablePath(path.slice(token[0].length))}`;
  return SHARE_LINK_TOKEN.test(path) ? path.replace(SHARE_LINK_TOKEN, '$1[redacted]') : path;
}
