import { Transform, TransformCallback } from 'node:stream';
import { BodyLengthError, BodyLimits, maxBodyBytes } from './object-storage';

/**
 * Passes a put's body through while counting its bytes, and fails with BodyLengthError as soon as the
 * body breaks its limits: one byte past the longest allowed, or an end short of the declared length.
 * Both adapters write through it, so both hold the port's limits the same way.
 */
export class BodyLengthCheck extends Transform {
  bytes = 0;
  private readonly maxBytes: number;

  /** Throws BodyLengthError at once when the declared length is past the limits: no byte needs reading. */
  constructor(private readonly limits: BodyLimits) {
    super();
    this.maxBytes = maxBodyBytes(limits);
    if (limits.contentLength !== undefined && limits.contentLength > this.maxBytes) throw new BodyLengthError('too-long', this.maxBytes);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      callback(new BodyLengthError('too-long', this.maxBytes));
      return;
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    const declared = this.limits.contentLength;
    callback(declared !== undefined && this.bytes < declared ? new BodyLengthError('too-short', declared) : null);
  }
}
