import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { badRequest, forbidden, notFound, payloadTooLarge, rangeNotSatisfiable } from '../../shared/errors';
import { BodyLengthError, ByteRange, maxBodyBytes, MultipartUploadNotFoundError } from '../../shared/storage/object-storage';
import type { SignedObjectAccess } from '../../shared/storage/signed-object-access';
import { multipartRanges, parseByteRanges } from '../http/byte-range';
import type { AppContext } from '../http/context';
import { declaredLength } from '../http/declared-length';
import { rawBytes, route} from '../http/route';
import type { RouteModule } from '../gateway-deps';
import { BodySegment, sendFileSegments } from '../http/send-file-range';
import { presentStoredObject, presentStoredPart, storedObjectResponse } from '../../shared/contract/uploads';

const objectParams = z.object({ key: z.string() });

/**
 * The object store's signed URLs, when they point at the gateway (the embedded store; none for S3):
 * GET/HEAD (downloads) and PUT (large uploads, and the parts of multipart uploads), each allowed only
 * by a valid, unexpired signature.
 * No bearer key is involved.
 */
export const signedObjectRoutes: RouteModule = (deps) => (deps.signedAccess ? routesFor(deps.signedAccess) : []);

function routesFor(storage: SignedObjectAccess) {
  const objectPath = `${storage.path}/:key(.+)`;
  /** The signature's parameters, each given once; verify() decides whether they grant anything. */
  const signedUrlQuery = z
    .object(Object.fromEntries(storage.queryParams.map((name) => [name, z.string({ invalid_type_error: 'must be given once' }).optional()])))
    .strict();

  const authorise = (ctx: AppContext) => {
    const key = keyOfPath(storage.path, ctx.path);
    const { verdict, grant } = storage.verify(ctx.method, key, new URLSearchParams(ctx.querystring));
    if (verdict === 'invalid' || !grant) throw forbidden('the URL signature is not valid');
    if (verdict === 'expired') throw forbidden('the URL has expired');
    ctx.set('Cache-Control', 'private, no-store');
    return { key, grant };
  };

  return [
    route({
      method: 'get', path: objectPath, operationId: 'readSignedObject', guard: 'none', summary: 'Read an object through a signed URL (Range supported: one range, or several as multipart/byteranges)',
      params: objectParams, query: signedUrlQuery,
      status: [200, 206], failures: [403, 416], response: 'bytes',
      handle: async (_input, ctx) => {
        const { key, grant } = authorise(ctx);
        const info = await storage.head(key);
        if (!info) throw notFound('object not found');
        ctx.set('Accept-Ranges', 'bytes');
        const ranges = parseByteRanges(ctx.get('Range') || undefined, info.size);
        if (ranges === 'unsatisfiable') {
          // Checked before the file's headers are set: the error envelope is not an attachment.
          ctx.set('Content-Range', `bytes */${info.size}`);
          throw rangeNotSatisfiable('the requested range is outside the object');
        }
        const contentType = grant.contentType ?? 'application/octet-stream';
        if (grant.disposition) ctx.set('Content-Disposition', grant.disposition);
        const body = answerBody(ranges, info.size, contentType);
        ctx.status = ranges ? 206 : 200;
        ctx.type = body.contentType;
        if (body.contentRange) ctx.set('Content-Range', body.contentRange);
        ctx.length = body.length;
        if (ctx.method === 'HEAD') return;
        const file = await storage.openObject(key);
        // The bytes are written here, through reused buffers, instead of by Koa from a stream.
        ctx.respond = false;
        await sendFileSegments(file, body.segments, body.tail, ctx.res);
      },
    }),
    route({
      method: 'put', path: objectPath, operationId: 'writeSignedObject', guard: 'none', summary: 'Store the bytes of a large upload, or one part of a multipart upload, through a signed URL',
      params: objectParams, query: signedUrlQuery, body: rawBytes,
      status: 200, failures: [403], response: storedObjectResponse,
      handle: async (_input, ctx) => {
        const { key, grant } = authorise(ctx);
        // A signed length is exact, as on S3; without one, the largest put applies.
        const limits = { contentLength: grant.contentLength };
        const declared = declaredLength(ctx);
        if (declared !== undefined && declared > maxBodyBytes(limits)) throw tooLarge(ctx, maxBodyBytes(limits));
        try {
          if (grant.uploadId === undefined || grant.partNumber === undefined) return presentStoredObject((await storage.put(key, ctx.req, limits)).size);
          const part = await storage.putPart(grant.uploadId, grant.partNumber, ctx.req, limits);
          // Where S3 reports a part's tag.
          ctx.set('ETag', part.etag);
          return presentStoredPart(part);
        } catch (error) {
          if (error instanceof MultipartUploadNotFoundError) {
            ctx.set('Connection', 'close');
            throw notFound('the multipart upload of this URL takes no more parts: it was completed, aborted or has expired');
          }
          if (!(error instanceof BodyLengthError)) throw error;
          if (error.problem === 'too-long') throw tooLarge(ctx, error.limit);
          throw badRequest(`the body must have exactly ${error.limit} bytes, as signed into this URL`);
        }
      },
    }),
  ];
}

/** What a GET answers: the whole object, one range of it, or several ranges as `multipart/byteranges`. */
interface AnswerBody {
  contentType: string;
  contentRange?: string;
  length: number;
  segments: BodySegment[];
  tail?: Buffer;
}

function answerBody(ranges: ByteRange[] | undefined, size: number, contentType: string): AnswerBody {
  if (!ranges) return { contentType, length: size, segments: [{ range: { start: 0, end: size - 1 } }] };
  if (ranges.length === 1) {
    // One range is never sent as multipart (RFC 9110 §14.6).
    const [range] = ranges;
    return { contentType, contentRange: `bytes ${range.start}-${range.end}/${size}`, length: range.end - range.start + 1, segments: [{ range }] };
  }
  const multipart = multipartRanges(ranges, size, contentType, randomBytes(12).toString('hex'));
  return { contentType: multipart.contentType, length: multipart.length, segments: multipart.parts, tail: multipart.tail };
}

/** The rest of a body too large is not read: the connection closes once the answer is sent. */
function tooLarge(ctx: AppContext, limit: number) {
  ctx.set('Connection', 'close');
  return payloadTooLarge(`the body is larger than the ${limit} bytes this URL accepts`);
}

/** The object key from the raw path (the router's decoded param would turn '+' into a space). */
function keyOfPath(basePath: string, rawPath: string): string {
  try {
    return rawPath.slice(basePath.length + 1).split('/').map(decodeURIComponent).join('/');
  } catch {
    throw notFound('object not found');
  }
}
