import { type AppError, payloadTooLarge } from '../../shared/errors';
import { LOGO_MAX_BYTES } from '../../shared/policy';
import { BodyLengthError } from '../../shared/storage/object-storage';
import { readBoundedBody } from '../http/bounded-body';
import type { AppContext } from '../http/context';
import { declaredLength } from '../http/declared-length';

const TOO_LARGE = `a logo is at most ${LOGO_MAX_BYTES} bytes (${LOGO_MAX_BYTES / 1024} KiB)`;

/** The rest of a body too large is not read: the connection closes once the answer is sent. */
function tooLarge(ctx: AppContext): AppError {
  ctx.set('Connection', 'close');
  return payloadTooLarge(TOO_LARGE);
}

/**
 * A logo upload's bytes, read whole into memory (to check what they are) up to LOGO_MAX_BYTES: a
 * declared length over it is refused before a byte is read, and an undeclared one at the byte past it.
 */
export async function receiveLogoBytes(ctx: AppContext): Promise<Buffer> {
  const declared = declaredLength(ctx);
  if (declared !== undefined && declared > LOGO_MAX_BYTES) throw tooLarge(ctx);
  try {
    return await readBoundedBody(ctx.req, LOGO_MAX_BYTES);
  } catch (error) {
    if (error instanceof BodyLengthError) throw tooLarge(ctx);
    throw error;
  }
}
