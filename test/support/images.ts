import { deflateSync } from 'node:zlib';

/** CRC-32 (ISO-HDLC), as PNG chunks carry it. */
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A valid PNG a browser decodes: `size` × `size` pixels, a disc of `rgb` on a transparent ground
 * (so a screenshot shows it), truecolour with alpha.
 */
export function pngImage(size = 64, rgb: [number, number, number] = [11, 110, 79]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const rows: Buffer[] = [];
  const centre = (size - 1) / 2;
  for (let y = 0; y < size; y += 1) {
    const row = Buffer.alloc(1 + size * 4);
    for (let x = 0; x < size; x += 1) {
      const inside = (x - centre) ** 2 + (y - centre) ** 2 <= (size / 2) ** 2;
      row.set(inside ? [...rgb, 255] : [0, 0, 0, 0], 1 + x * 4);
    }
    rows.push(row);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

/** The start of a JPEG file (SOI, then an APP0 JFIF segment): what its signature check reads. */
export const jpegStart = (): Buffer => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0', 'latin1'), Buffer.alloc(64)]);

/** The start of a WebP file: a RIFF container of type WEBP. */
export const webpStart = (): Buffer => Buffer.concat([Buffer.from('RIFF', 'latin1'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 ', 'latin1'), Buffer.alloc(64)]);

/** An SVG image, which a logo may not be: it can carry script. */
export const svgImage = (): Buffer => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
