import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { notFound, ObjectNotFoundError } from '../../shared/errors';
import { DOWNLOAD_URL_LIFETIME_SECONDS, FEED_RANGE_RELAY_MAX_BYTES } from '../../shared/policy';
import { presentRedirect } from '../../shared/contract/downloads';
import { ByteRange, ObjectStorage, servedContentType } from '../../shared/storage/object-storage';
import type { FileRecord } from '../../shared/store/models';
import { multipartRanges, parseByteRanges } from '../http/byte-range';
import { clientOrigin, type DownloadOrigin } from '../http/client-origin';
import type { AppContext, CustomerPrincipal, TokenGrant } from '../http/context';
import { isPending, type Eventually } from '../http/eventually';
import type { DownloadPresenter } from './answer-cache';
import { Reply } from '../http/reply';
import { readMethodOf } from '../http/read-method';

type Redirect = Reply<{ downloadUrl: string; expiresAt: string }>;

/** What a file link asks of the download service, which hands itself over (DownloadService.answerFileLink). */
export interface FileLinkDownloads {
  answer<T>(file: FileRecord, lifetimeSeconds: number, present: DownloadPresenter<T>, method: 'GET' | 'HEAD'): Eventually<Reply<T>>;
  countRanges(token: TokenGrant, bytes: number, origin: DownloadOrigin): Promise<void>;
  checkToken(origin: DownloadOrigin): Promise<void>;
  record(file: FileRecord, origin: DownloadOrigin): Promise<void>;
}

/**
 * How a file link (a feed's electron-updater, Tauri and Sparkle files, Squirrel.Windows and Velopack
 * packages, a package repository's pool link, a TUF target) answers a request for a granted, licensed file:
 * - a GET without Range (or with one the service ignores, as RFC 9110 lets it: then the whole file
 *   is answered) is one download: recorded, counted against an access token's limits, then `302` to
 *   a pre-signed URL;
 * - a HEAD is no download: `302`, nothing recorded or counted (a spent access token refused as its GET would be);
 * - a GET with satisfiable byte ranges is a piece of a download (a differential or resumed one): no
 *   download event. With an access token its bytes are counted against the token's `maxBytes` (and
 *   refused once its downloads or bytes are spent), and the ranges are answered here, `206`, never
 *   by a redirect to a URL that would serve the whole file uncounted. Without one, one range of at
 *   most FEED_RANGE_RELAY_MAX_BYTES is answered here (see that limit), anything else redirected.
 */
export async function answerFileLink(
  ctx: AppContext, customer: CustomerPrincipal, file: FileRecord, downloads: FileLinkDownloads, storage: ObjectStorage,
): Promise<Redirect | Reply<never>> {
  const downloading = ctx.method === 'GET';
  const ranges = downloading ? parseByteRanges(ctx.get('Range') || undefined, file.fileSize) : undefined;
  if (Array.isArray(ranges)) {
    const origin = clientOrigin(ctx, customer.customerId);
    if (origin.token) {
      await downloads.countRanges(origin.token, rangesLength(ranges), origin);
      return ranges.length === 1 ? sendRelayedRange(storage, file, ranges[0], ctx) : sendRelayedRanges(storage, file, ranges, ctx);
    }
    if (ranges.length === 1 && rangeLength(ranges[0]) <= FEED_RANGE_RELAY_MAX_BYTES) return sendRelayedRange(storage, file, ranges[0], ctx);
  }
  const answered = downloads.answer(file, DOWNLOAD_URL_LIFETIME_SECONDS, presentRedirect, readMethodOf(ctx));
  const answer = isPending(answered) ? await answered : answered;
  // An unsatisfiable Range is ignored like any other the service does not serve: the whole file, one download.
  if (!downloading) await downloads.checkToken(clientOrigin(ctx, customer.customerId));
  else if (!Array.isArray(ranges)) await downloads.record(file, clientOrigin(ctx, customer.customerId));
  ctx.set('Location', answer.data.downloadUrl);
  return answer;
}

const rangeLength = (range: ByteRange): number => range.end - range.start + 1;

/** Every byte a set of ranges asks for. */
export const rangesLength = (ranges: readonly ByteRange[]): number => ranges.reduce((sum, range) => sum + rangeLength(range), 0);

/** Answers 206 with one range of a file's bytes, read from the object store by range. */
export async function sendRelayedRange(storage: ObjectStorage, file: FileRecord, range: ByteRange, ctx: AppContext): Promise<Reply<never>> {
  const body = await openRange(storage, file, range);
  ctx.status = 206;
  ctx.set('Accept-Ranges', 'bytes');
  ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${file.fileSize}`);
  ctx.type = servedContentType(file.contentType);
  ctx.length = rangeLength(range);
  ctx.body = body;
  return Reply.written();
}

/**
 * Answers 206 `multipart/byteranges` with several ranges of a file's bytes, each read from the object
 * store by range when its turn comes (the first opened before the answer starts, so a missing object
 * is a 404, not a broken body).
 */
async function sendRelayedRanges(storage: ObjectStorage, file: FileRecord, ranges: readonly ByteRange[], ctx: AppContext): Promise<Reply<never>> {
  const body = multipartRanges(ranges, file.fileSize, servedContentType(file.contentType), randomBytes(12).toString('hex'));
  const first = await openRange(storage, file, ranges[0]);
  async function* parts(): AsyncGenerator<Buffer> {
    try {
      for (const [index, part] of body.parts.entries()) {
        yield part.head;
        const stream = index === 0 ? first : await openRange(storage, file, part.range);
        for await (const chunk of stream) yield chunk as Buffer;
      }
      yield body.tail;
    } finally {
      // A client gone before the first part was read leaves it open.
      first.destroy();
    }
  }
  ctx.status = 206;
  ctx.set('Accept-Ranges', 'bytes');
  ctx.set('Content-Type', body.contentType);
  ctx.length = body.length;
  ctx.body = Readable.from(parts(), { objectMode: false });
  return Reply.written();
}

async function openRange(storage: ObjectStorage, file: FileRecord, range: ByteRange): Promise<Readable> {
  try {
    return await storage.getStream(file.storageKey, range);
  } catch (error) {
    if (error instanceof ObjectNotFoundError) throw notFound('file not found');
    throw error;
  }
}
