import type { FileHandle } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import type { ByteRange } from '../../shared/storage/object-storage';

/** Bytes per read from the file and per write to the connection. */
export const SEND_CHUNK_BYTES = 256 * 1024;
/** Free buffers kept between sends: a burst of downloads reuses them instead of allocating. */
const POOL_LIMIT = 64;
const pool: Buffer[] = [];

type Outcome = 'written' | 'gone';

/** Part of a response body: bytes written as they are (a multipart head), then a range of the file. */
export interface BodySegment {
  head?: Buffer;
  range: ByteRange;
}

/**
 * Writes each segment (its head, then its range of the file) and then `tail` to `out`, ends it and
 * closes the file: the body of a single-range answer or of a `multipart/byteranges` one.
 * Two pooled buffers take turns: the next chunk is read while the current one is written, and a
 * buffer is read into again only once its write has completed. Nothing is allocated per chunk
 * (fresh buffers per chunk made V8 run a full collection every few MB under load), and a
 * connection holds at most two chunks however slow its client is. Resolves when the response has
 * ended or the client has gone; a read error destroys the response and is thrown.
 */
export async function sendFileSegments(file: FileHandle, segments: readonly BodySegment[], tail: Buffer | undefined, out: Writable): Promise<void> {
  const buffers = [takeBuffer(), takeBuffer()];
  /** Buffers an unfinished write may still hold: they are never pooled again. */
  const held = new Set<Buffer>();
  const gone = whenGone(out);
  try {
    let writing: Promise<Outcome> = Promise.resolve('written');
    let turn = 0;
    for (const { head, range } of segments) {
      if (head) {
        // A head is written once the previous chunk is taken, in order; it holds no pooled buffer.
        if ((await Promise.race([writing, gone])) === 'gone') return;
        writing = writeChunk(out, head, undefined, held);
      }
      for (let position = range.start; position <= range.end; turn = 1 - turn) {
        const buffer = buffers[turn];
        // The other buffer's write is awaited while this one is read into.
        const [bytesRead, previous] = await Promise.all([readChunk(file, buffer, position, range.end), Promise.race([writing, gone])]);
        if (previous === 'gone') return;
        writing = writeChunk(out, buffer.subarray(0, bytesRead), buffer, held);
        position += bytesRead;
      }
    }
    if (tail) {
      if ((await Promise.race([writing, gone])) === 'gone') return;
      writing = writeChunk(out, tail, undefined, held);
    }
    if ((await Promise.race([writing, gone])) === 'gone') return;
    out.end();
  } catch (error) {
    out.destroy(error as Error);
    throw error;
  } finally {
    for (const buffer of buffers) if (!held.has(buffer)) returnBuffer(buffer);
    await file.close();
  }
}

function takeBuffer(): Buffer {
  return pool.pop() ?? Buffer.allocUnsafeSlow(SEND_CHUNK_BYTES);
}

function returnBuffer(buffer: Buffer): void {
  if (pool.length < POOL_LIMIT) pool.push(buffer);
}

/** Resolves once the connection has closed or failed (at once when it already has). */
function whenGone(out: Writable): Promise<Outcome> {
  if (out.destroyed) return Promise.resolve('gone');
  return new Promise((resolve) => {
    out.once('close', () => resolve('gone'));
    out.once('error', () => resolve('gone'));
  });
}

async function readChunk(file: FileHandle, buffer: Buffer, position: number, end: number): Promise<number> {
  const { bytesRead } = await file.read(buffer, 0, Math.min(buffer.length, end - position + 1), position);
  // Stored objects never change in place (a new one is renamed over the old), so a short file is a fault.
  if (bytesRead === 0) throw new Error(`the file ended at byte ${position}, before byte ${end}`);
  return bytesRead;
}

/** Resolves when the connection has taken the chunk; a failed write means the connection is gone. */
function writeChunk(out: Writable, chunk: Buffer, buffer: Buffer | undefined, held: Set<Buffer>): Promise<Outcome> {
  if (buffer) held.add(buffer);
  return new Promise((resolve) => {
    out.write(chunk, (error) => {
      if (error) return resolve('gone');
      if (buffer) held.delete(buffer);
      resolve('written');
    });
  });
}
