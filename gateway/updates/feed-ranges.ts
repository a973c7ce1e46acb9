import { notFound, ObjectNotFoundError } from '../../shared/errors';
import { FEED_RANGE_RELAY_MAX_BYTES } from '../../shared/policy';
import { ByteRange, ObjectStorage, servedContentType } from '../../shared/storage/object-storage';
import type { FileRecord } from '../../shared/store/models';
import { parseByteRanges } from '../http/byte-range';
import type { AppContext } from '../http/context';
import { Reply } from '../http/reply';

/**
 * The one byte range of a feed file link's GET that the gateway answers itself (see
 * FEED_RANGE_RELAY_MAX_BYTES): undefined for anything else (no Range, several ranges, one out of the
 * object or larger than the limit), which the link answers with its redirect as for a whole download.
 */
export function relayedRange(header: string | undefined, fileSize: number): ByteRange | undefined {
  const ranges = parseByteRanges(header, fileSize);
  if (!Array.isArray(ranges) || ranges.length !== 1) return undefined;
  const [range] = ranges;
  return range.end - range.start + 1 <= FEED_RANGE_RELAY_MAX_BYTES ? range : undefined;
}

/** Answers 206 with one range of a file's bytes, read from the object store by range. */
export async function sendRelayedRange(storage: ObjectStorage, file: FileRecord, range: ByteRange, ctx: AppContext): Promise<Reply<never>> {
  let body;
  try {
    body = await storage.getStream(file.storageKey, range);
  } catch (error) {
    if (error instanceof ObjectNotFoundError) throw notFound('file not found');
    throw error;
  }
  ctx.status = 206;
  ctx.set('Accept-Ranges', 'bytes');
  ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${file.fileSize}`);
  ctx.type = servedContentType(file.contentType);
  ctx.length = range.end - range.start + 1;
  ctx.body = body;
  return Reply.written();
}
