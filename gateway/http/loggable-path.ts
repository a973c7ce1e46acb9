import { SHARE_LINKS_PATH } from '../downloads/download-routes';

/** Paths whose next segment is a bearer secret (a share link's token): logged as `[redacted]`. */
const SECRET_SEGMENT_AFTER = [`${SHARE_LINKS_PATH.toLowerCase()}/`];

/**
 * A request path as it may be logged: the query string is never part of it (it may hold a URL
 * signature), and a share link's token is replaced, so a log reader cannot download with it.
 */
export function loggablePath(path: string): string {
  const lower = path.toLowerCase();
  for (const prefix of SECRET_SEGMENT_AFTER) {
    if (!lower.startsWith(prefix) || path.length === prefix.length) continue;
    const end = path.indexOf('/', prefix.length);
    return `${path.slice(0, prefix.length)}[redacted]${end === -1 ? '' : path.slice(end)}`;
  }
  return path;
}
