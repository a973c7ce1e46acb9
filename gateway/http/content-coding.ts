import type { Context } from 'koa';
import { unsupportedMediaType } from '../../shared/errors';

/**
 * Request bodies are taken as they are sent: JSON bodies are at most 1 MB, and uploads are stored
 * byte for byte and hashed as received, so decoding a compressed body would buy nothing and add a
 * decompression bomb to guard against. Any Content-Encoding other than `identity` is refused with
 * 415 before a byte of the body is read (a body labelled gzip that is not gzip included). An
 * `identity` label, in any case, is dropped: the body readers downstream compare it case-sensitively.
 */
export function requireIdentityCoding(ctx: Context): void {
  const coding = ctx.get('Content-Encoding').trim().toLowerCase();
  if (coding !== '' && coding !== 'identity') {
    throw unsupportedMediaType('request bodies are taken as they are: send them without a Content-Encoding');
  }
  delete ctx.req.headers['content-encoding'];
}
