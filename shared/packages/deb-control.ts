import type { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { Decompress as ZstdDecompress } from 'fzstd';
import tarStream from 'tar-stream';
import { XzReadableStream } from 'xz-decompress';
import { PACKAGE_CONTROL_UNPACKED_MAX_BYTES, PACKAGE_HEADER_READ_MAX_BYTES } from '../policy';
import { PackageFormatError, readPrefix } from './read-prefix';

/**
 * A `.deb`'s control file, read as dpkg wrote it: the ar archive's `debian-binary` (2.0), then
 * `control.tar` compressed with gzip, xz or zstd (or not at all), whose `./control` is the package's
 * paragraph (deb(5), deb-control(5)). Only the first members are read: the control member comes
 * before the data, within PACKAGE_HEADER_READ_MAX_BYTES.
 */
export interface DebControl {
  /** The paragraph's fields in their order, values as written (continuation lines kept). */
  fields: ReadonlyArray<readonly [string, string]>;
}

const AR_MAGIC = '!<arch>\n';
const AR_HEADER_BYTES = 60;

/** Reads the control paragraph of a `.deb` from its bytes; throws PackageFormatError when it is no Debian package. */
export async function readDebControl(body: Readable): Promise<DebControl> {
  const member = await controlMember(body);
  const tar = await unpack(member.name, member.data);
  const text = await controlFileOf(tar);
  return { fields: parseControlParagraph(text) };
}

async function controlMember(body: Readable): Promise<{ name: string; data: Buffer }> {
  const bytes = await readPrefix(body, PACKAGE_HEADER_READ_MAX_BYTES, (buffer) => controlMemberIn(buffer) !== 'need-more');
  const found = controlMemberIn(bytes);
  if (found === 'need-more') throw new PackageFormatError(`the control member does not end within the first ${PACKAGE_HEADER_READ_MAX_BYTES} bytes`);
  return found;
}

/** The control member when the bytes hold it whole; 'need-more' when they end before it does. */
function controlMemberIn(bytes: Buffer): { name: string; data: Buffer } | 'need-more' {
  if (bytes.length < AR_MAGIC.length) return 'need-more';
  if (bytes.toString('latin1', 0, AR_MAGIC.length) !== AR_MAGIC) throw new PackageFormatError('not an ar archive');
  let offset = AR_MAGIC.length;
  for (let index = 0; ; index += 1) {
    if (offset + AR_HEADER_BYTES > bytes.length) return 'need-more';
    const header = bytes.toString('latin1', offset, offset + AR_HEADER_BYTES);
    if (header.slice(58, 60) !== '`\n') throw new PackageFormatError('a malformed ar member header');
    // GNU ar ends names with '/'; dpkg writes them padded with spaces.
    const name = header.slice(0, 16).trim().replace(/\/$/, '');
    const size = Number(header.slice(48, 58).trim());
    if (!Number.isSafeInteger(size) || size < 0) throw new PackageFormatError('a malformed ar member size');
    const start = offset + AR_HEADER_BYTES;
    if (index === 0 && name !== 'debian-binary') throw new PackageFormatError('the first member is not debian-binary');
    if (name.startsWith('control.tar')) {
      if (start + size > bytes.length) return 'need-more';
      return { name, data: bytes.subarray(start, start + size) };
    }
    if (name.startsWith('data.tar')) throw new PackageFormatError('no control member before the data');
    // Members are aligned to an even offset.
    offset = start + size + (size % 2);
  }
}

async function unpack(name: string, data: Buffer): Promise<Buffer> {
  const max = PACKAGE_CONTROL_UNPACKED_MAX_BYTES;
  const tooLarge = () => new PackageFormatError(`the control archive unpacks to more than ${max} bytes`);
  switch (name) {
    case 'control.tar':
      return data;
    case 'control.tar.gz':
      try {
        return gunzipSync(data, { maxOutputLength: max });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
        throw new PackageFormatError('the control archive is not valid gzip');
      }
    case 'control.tar.xz': {
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        const reader = new XzReadableStream(new Blob([data]).stream()).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          size += value.byteLength;
          if (size > max) {
            await reader.cancel();
            throw tooLarge();
          }
          chunks.push(Buffer.from(value));
        }
      } catch (error) {
        if (error instanceof PackageFormatError) throw error;
        throw new PackageFormatError('the control archive is not valid xz');
      }
      return Buffer.concat(chunks);
    }
    case 'control.tar.zst': {
      const chunks: Uint8Array[] = [];
      let size = 0;
      let over = false;
      const decompress = new ZstdDecompress((chunk) => {
        size += chunk.byteLength;
        if (size > max) over = true;
        else chunks.push(chunk);
      });
      try {
        // Fed in slices, so a bomb stops at the first slice past the bound.
        for (let at = 0; at < data.length && !over; at += 64 * 1024) decompress.push(data.subarray(at, at + 64 * 1024), at + 64 * 1024 >= data.length);
      } catch {
        throw new PackageFormatError('the control archive is not valid zstd');
      }
      if (over) throw tooLarge();
      return Buffer.concat(chunks);
    }
    default:
      throw new PackageFormatError(`an unknown control member ${name}`);
  }
}

function controlFileOf(tar: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const extract = tarStream.extract();
    let control: string | undefined;
    extract.on('entry', (header, stream, next) => {
      const name = header.name.replace(/^\.\//, '');
      if (name !== 'control' || header.type !== 'file') {
        stream.resume();
        stream.on('end', next);
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
      stream.on('end', () => {
        control = Buffer.concat(chunks).toString('utf8');
        next();
      });
    });
    extract.on('finish', () => (control === undefined ? reject(new PackageFormatError('the control archive has no control file')) : resolve(control)));
    extract.on('error', () => reject(new PackageFormatError('the control archive is not a valid tar')));
    extract.end(tar);
  });
}

const FIELD_NAME = /^[!-9;-~][!-9;-~]*$/;

/** One deb822 paragraph: `Name: value` lines, continuation lines starting with a space or a tab. */
export function parseControlParagraph(text: string): Array<[string, string]> {
  const fields: Array<[string, string]> = [];
  for (const line of text.replace(/\r\n/g, '\n').split('\n')) {
    if (line.trim() === '') {
      if (fields.length > 0) break;
      continue;
    }
    if (line.startsWith('#')) continue;
    if (line.startsWith(' ') || line.startsWith('\t')) {
      const last = fields[fields.length - 1];
      if (!last) throw new PackageFormatError('the control file starts with a continuation line');
      last[1] += `\n${line}`;
      continue;
    }
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon) : '';
    if (!FIELD_NAME.test(name)) throw new PackageFormatError('the control file has a malformed field');
    fields.push([name, line.slice(colon + 1).trim()]);
  }
  return fields;
}
