import { payloadTooLarge } from '../../shared/errors';
import { LOGO_MAX_BYTES } from '../../shared/policy';
import { BodyLengthError } from '../../shared/storage/object-storage';
import { readBoundedBody } from '../http/bounded-body';
import type { AppContext } from '../http/context';
import { declaredLength } from '../http/declared-length';

const TOO_LARGE = `a logo is at most ${LOGO_MAX_BYTES} bytes (${LOGO_MAX_BYTES / 1024} KiB)`;

/**
 * A logo upload's bytes, read whole into memory (to check what they are) up to LOGO_MAX_BYTES. A
 * declared length over it is refused before a byte is read, the connection left open as for JSON
 * bodies (Node discards the body, so a client already sending it reads the answer rather than a
 * reset); a body without a length is refused at the byte past the limit, reading stops there and
 * the connection closes once the answer is sent, so no more of it is read.
 */
export async function receiveLogoBytes(ctx: AppContext): Promise<Buffer> {
  const declared = declaredLength(ctx);
  if (declared !== undefined && declared > LOGO_MAX_BYTES) throw payloadTooLarge(TOO_LARGE);
  try {
    return await readBoundedBody(ctx.req, LOGO_MAX_BYTES);
  } catch (error) {
    if (!(error instanceof BodyLengthError)) throw error;
    ctx.set('Connection', 'close');
    throw payloadTooLarge(TOO_LARGE);
  }
}
