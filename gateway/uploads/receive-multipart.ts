import busboy from 'busboy';
import type { IncomingMessage } from 'node:http';
import { Transform } from 'node:stream';
import { badRequest, payloadTooLarge, unsupportedMediaType } from '../../shared/errors';
import type { Digester, Hashing } from '../../shared/hashing';
import { MULTIPART_FORM_OVERHEAD_BYTES } from '../../shared/policy';
import { RELEASE_NOTES_MAX_LENGTH } from '../../shared/contract/fields';
import type { ObjectStorage } from '../../shared/storage/object-storage';
import { formStagingKey } from '../../shared/uploads/storage-keys';

/**
 * busboy's field limit: above the longest form field (release notes of the most characters, each up
 * to 4 bytes in UTF-8), since busboy counts a field that reaches its limit as cut short.
 */
const FIELD_LIMIT_BYTES = RELEASE_NOTES_MAX_LENGTH * 4 + 1;

/** The form field that carries the file. */
export { UPLOAD_FILE_FIELD as FILE_FIELD } from '../../shared/contract/uploads-requests';
import { UPLOAD_FILE_FIELD as FILE_FIELD } from '../../shared/contract/uploads-requests';

export interface StagedFile {
  stagingKey: string;
  fileName: string;
  mimeType: string;
  size: number;
  /** Hex. */
  sha256: string;
  /** Base64. */
  sha512: string;
  /** Hex. */
  sha1: string;
}

export interface ReceivedForm {
  fields: Record<string, string>;
  file: StagedFile | undefined;
}

export interface MultipartOptions {
  /** Largest file taken; one byte more is refused with 413 and `tooLargeMessage`. */
  maxFileBytes: number;
  tooLargeMessage: string;
  /**
   * Called when the file part starts, with the fields sent before it and the part's file name. Throwing
   * (or rejecting) refuses the form before a byte of the file is stored; the rest of the body is read
   * and discarded. Fields sent after the file can only be checked once the form is read.
   */
  admitFile?: (fields: Readonly<Record<string, string>>, fileName: string) => void | Promise<void>;
}

/**
 * Streams a multipart form: the `file` part goes straight to a staging key in object storage while
 * its size is counted and its SHA-256 and SHA-512 are computed where `hashing` computes them (on
 * hashing threads, while the event loop writes the file); nothing is held whole in memory. A file
 * over `maxFileBytes` is refused with 413 and its partial object removed. Fields are collected as
 * strings.
 */
export async function receiveMultipart(req: IncomingMessage, storage: ObjectStorage, hashing: Hashing, options: MultipartOptions): Promise<ReceivedForm> {
  const { maxFileBytes, tooLargeMessage } = options;
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, defParamCharset: 'utf8', limits: { fileSize: maxFileBytes + 1, files: 1, fields: 32, fieldSize: FIELD_LIMIT_BYTES, parts: 40 } });
  } catch {
    throw unsupportedMediaType('expected multipart/form-data with a boundary');
  }

  // No prototype: a field named `__proto__` is kept (and refused as unknown) instead of vanishing.
  const fields: Record<string, string> = Object.create(null);
  let staging: Promise<StagedFile> | undefined;
  let stagingKey: string | undefined;
  let hashingStream: Transform | undefined;
  let digester: Digester | undefined;
  let problem: Error | undefined;
  const fail = (error: Error) => {
    problem ??= error;
  };

  parser.on('field', (name, value, info) => {
    if (info.valueTruncated) fail(badRequest(`form field ${name} is too long`));
    fields[name] = value;
  });
  parser.on('file', (name, stream, info) => {
    // A body that ends inside this part makes busboy destroy the part's stream with the form's error
    // (the parser reports it too): without a listener that error would end the process.
    stream.on('error', (error: Error) => fail(malformed(error)));
    if (name !== FILE_FIELD || staging) {
      fail(badRequest(name === FILE_FIELD ? 'send exactly one file' : `unexpected file field ${name}; the file goes in field "${FILE_FIELD}"`));
    }
    if (problem || staging) {
      // The form is refused already: nothing more is stored.
      stream.resume();
      return;
    }
    let size = 0;
    const hashingThrough = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        // The digester takes the chunk at once unless its threads are a ring behind: then the body waits.
        const taking = digester?.update(chunk);
        if (taking) taking.then(() => callback(null, chunk), callback);
        else callback(null, chunk);
      },
    });
    // Its failures reach us through the storage write, or were ours to begin with.
    hashingThrough.on('error', () => undefined);
    hashingStream = hashingThrough;
    // busboy signals 'limit' on reaching fileSize, which is one byte past the largest file allowed.
    stream.on('limit', () => {
      fail(payloadTooLarge(tooLargeMessage));
      hashingThrough.destroy(payloadTooLarge(tooLargeMessage));
    });
    const fileName = info.filename ?? '';
    staging = Promise.resolve<Record<string, string>>(Object.assign(Object.create(null), fields))
      .then((before) => options.admitFile?.(before, fileName))
      .then(async () => {
        if (problem) throw problem;
        const key = formStagingKey(Date.now());
        stagingKey = key;
        digester = hashing.digester();
        stream.pipe(hashingThrough);
        await storage.put(key, hashingThrough, { contentType: 'application/octet-stream' });
        return { stagingKey: key, fileName, mimeType: info.mimeType, size, ...(await digester.digest()) };
      })
      .catch((error: Error) => {
        // Keep the parser moving: the rest of this part is discarded instead of stalling the request.
        stream.unpipe(hashingThrough);
        stream.resume();
        digester?.abort();
        fail(error);
        throw error;
      });
    staging.catch(() => undefined);
  });
  parser.on('partsLimit', () => fail(badRequest('too many form parts')));
  parser.on('fieldsLimit', () => fail(badRequest('too many form fields')));
  parser.on('filesLimit', () => fail(badRequest('send exactly one file')));

  await parse(req, parser, maxFileBytes + MULTIPART_FORM_OVERHEAD_BYTES, tooLargeMessage).catch(fail);
  // A request cut short leaves the file part unfinished: end its upload instead of waiting on it.
  if (problem && hashingStream && !hashingStream.writableFinished) hashingStream.destroy(problem);
  const file = staging ? await staging.catch((error: Error) => (fail(error), undefined)) : undefined;
  if (problem) {
    if (stagingKey) await storage.delete(stagingKey);
    throw problem;
  }
  return { fields, file };
}

/** Feeds the request to the parser; a body past `maxBodyBytes` stops reading and closes the connection. */
function parse(req: IncomingMessage, parser: busboy.Busboy, maxBodyBytes: number, tooLargeMessage: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let received = 0;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBodyBytes) {
        req.unpipe(parser);
        req.off('data', onData);
        req.pause();
        reject(Object.assign(payloadTooLarge(tooLargeMessage), { closeConnection: true }));
      }
    };
    req.on('data', onData);
    parser.on('close', resolve);
    parser.on('error', (error: Error) => reject(malformed(error)));
    req.on('error', reject);
    req.pipe(parser);
  });
}

const malformed = (error: Error) => badRequest(`malformed multipart body: ${error.message}`);
