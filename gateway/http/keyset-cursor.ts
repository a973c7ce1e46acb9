import { badRequest } from '../../shared/errors';

/** The last item a page sent: its timestamp and, among items of that instant, its id. */
export interface KeysetPosition {
  timestamp: Date;
  id: string;
}

/** The filters a listing was asked with, by their names in the cursor; null for a filter not given. */
export type CursorFilters = Readonly<Record<string, string | null>>;

const MAX_ID_LENGTH = 200;

/**
 * Opaque cursors of the listings read newest first by (timestamp, id): the activity feed and the
 * audit log. A cursor holds the position of the last item sent and the filters it was made for.
 * Paging is keyset-based, so items arriving meanwhile never shift a page; a cursor used with other
 * filters, or one that does not decode, is refused (400 INVALID_CURSOR).
 */
export function encodeCursor(position: KeysetPosition, filters: CursorFilters): string {
  const body = { v: 1, t: position.timestamp.getTime(), id: position.id, ...filters };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

export function decodeCursor(cursor: string, filters: CursorFilters): KeysetPosition {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (
    body === null || typeof body !== 'object' || body.v !== 1 || !Number.isSafeInteger(body.t) || typeof body.id !== 'string' ||
    body.id.length === 0 || body.id.length > MAX_ID_LENGTH
  ) {
    throw invalid();
  }
  if (Object.entries(filters).some(([name, value]) => (body[name] ?? null) !== value)) {
    throw badRequest('this cursor belongs to a listing with other filters', 'INVALID_CURSOR');
  }
  return { timestamp: new Date(body.t as number), id: body.id };
}

const invalid = () => badRequest('the cursor is not valid; start again without one', 'INVALID_CURSOR');
