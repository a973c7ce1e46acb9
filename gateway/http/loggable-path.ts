/** Where share links are created and used (downloads/): a log never shows the token after it. */
export const SHARE_LINKS_PATH = '/v1/downloads/share';

const REDACTED = '[redacted]';
/** The segments before a share link's token, as compared (lower case). */
const SHARE_SEGMENTS = SHARE_LINKS_PATH.slice(1).toLowerCase().split('/');

/**
 * Paths that may hold a token in some spelling: `/t/` or the share links' path at the start (any
 * case), or anything a reader could normalize into one (an empty or dot segment, a percent escape).
 * Every other path is returned as it is after this one test.
 */
const MAY_HOLD_TOKEN = new RegExp(`^/(?:t/|${SHARE_LINKS_PATH.slice(1).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/)|//|/\\.|%`, 'i');

/**
 * A request path as it may be logged: the query string is never part of it (it may hold a URL
 * signature), and a share link's token or an access token in the path is replaced, so a log reader
 * cannot download with it. The path is read as any reader of it might: segments compared without
 * case and percent-decoded, empty and `.` segments skipped and `..` taken back, so `//t/{token}`,
 * `/t//{token}`, `/./t/{token}` or `/%74/{token}` hide the token as `/t/{token}` does, whether or
 * not the router matches them. What is not secret is kept as it was written.
 */
export function loggablePath(path: string): string {
  if (!MAY_HOLD_TOKEN.test(path)) return path;
  const raw = path.split('/');
  // The path as read: the index in `raw` of each segment that counts, after dots are resolved.
  const read: number[] = [];
  for (let i = 1; i < raw.length; i += 1) {
    const segment = decoded(raw[i]);
    if (segment === '' || segment === '.') continue;
    if (segment === '..') read.pop();
    else read.push(i);
  }
  const secret = new Set<number>();
  const at = (position: number) => (position < read.length ? decoded(raw[read[position]]).toLowerCase() : undefined);
  let position = 0;
  // Access tokens in front (`/t/{token}`, even repeated), then a share link's token.
  while (at(position) === 't') {
    if (position + 1 < read.length) secret.add(read[position + 1]);
    position += 2;
  }
  if (SHARE_SEGMENTS.every((segment, offset) => at(position + offset) === segment) && position + SHARE_SEGMENTS.length < read.length) {
    secret.add(read[position + SHARE_SEGMENTS.length]);
  }
  if (secret.size === 0) return path;
  return raw.map((segment, i) => (secret.has(i) ? REDACTED : segment)).join('/');
}

/** A segment percent-decoded; one with a malformed escape as it is. */
function decoded(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
