import { SHARE_LINKS_PATH } from '../downloads/download-routes';

/** A share link's path, whatever its case (the router matches it so), up to its bearer token. */
const SHARE_LINK_TOKEN = new RegExp(`^(${SHARE_LINKS_PATH.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/)[^/]+`, 'i');

/**
 * A request path as it may be logged: the query string is never part of it (it may hold a URL
 * signature), and a share link's token is replaced, so a log reader cannot download with it. One
 * regular-expression test per request; the path itself is returned when nothing is secret.
 */
export function loggablePath(path: string): string {
  return SHARE_LINK_TOKEN.test(path) ? path.replace(SHARE_LINK_TOKEN, '$1[redacted]') : path;
}
