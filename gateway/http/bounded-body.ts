import type { Readable } from 'node:stream';
import { badRequest } from '../../shared/errors';
import { BodyLengthError } from '../../shared/storage/object-storage';

/**
 * Reads a raw request body into memory, for bodies small enough to check whole (a logo): at most
 * `maxBytes`. The byte past the limit fails with BodyLengthError and nothing more is read (the caller
 * answers 413 and closes the connection); a body cut short is a 400. Every error the stream raises
 * later is still handled, so a client going away never becomes an uncaught error.
 */
export function readBoundedBody(body: Readable, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (error: Error | null) => {
      if (settled) return;
      settled = true;
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('close', onClose);
      if (error) {
        body.pause();
        reject(error);
      } else {
        resolve(Buffer.concat(chunks, size));
      }
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) settle(new BodyLengthError('too-long', maxBytes));
      else chunks.push(chunk);
    };
    const onEnd = () => settle(null);
    const onClose = () => settle(badRequest('the request body was cut short'));
    body.on('data', onData);
    body.once('end', onEnd);
    body.once('close', onClose);
    body.on('error', () => settle(badRequest('the request body was cut short')));
  });
}
