import { badRequest } from '../../shared/errors';
import type { ActivityPosition } from '../../shared/store/store';

export interface ActivityFilter {
  type?: string;
  applicationId?: string;
}

interface CursorBody {
  v: 1;
  t: number;
  id: string;
  type: string | null;
  app: string | null;
}

/**
 * Opaque activity cursors: the position of the last item sent (timestamp, eventId) and the filters
 * it was made for. Paging is keyset-based, so events arriving meanwhile never shift a page; a cursor
 * used with other filters, or one that does not decode, is refused.
 */
export function encodeCursor(position: ActivityPosition, filter: ActivityFilter): string {
  const body: CursorBody = { v: 1, t: position.timestamp.getTime(), id: position.eventId, type: filter.type ?? null, app: filter.applicationId ?? null };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

export function decodeCursor(cursor: string, filter: ActivityFilter): ActivityPosition {
  let body: Partial<CursorBody>;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (
    body === null || typeof body !== 'object' || body.v !== 1 || !Number.isSafeInteger(body.t) || typeof body.id !== 'string' ||
    body.id.length === 0 || body.id.length > 200
  ) {
    throw invalid();
  }
  if ((body.type ?? null) !== (filter.type ?? null) || (body.app ?? null) !== (filter.applicationId ?? null)) {
    throw badRequest('this cursor belongs to a listing with other filters', 'INVALID_CURSOR');
  }
  return { timestamp: new Date(body.t as number), eventId: body.id };
}

const invalid = () => badRequest('the cursor is not valid; start again without one', 'INVALID_CURSOR');
