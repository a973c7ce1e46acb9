import { LOGO_CONTENT_TYPES } from './policy';

export type LogoContentType = (typeof LOGO_CONTENT_TYPES)[number];

/**
 * The image type the first bytes of a file say it is, by its signature ("magic number"): PNG's
 * 8-byte signature, JPEG's SOI marker followed by a marker, WebP's RIFF container of type WEBP.
 * Null for anything else (SVG, GIF, text, a truncated file).
 */
export function sniffImageType(bytes: Buffer): LogoContentType | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return null;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The declared Content-Type's media type when it is one a logo may have (parameters and case aside), else null. */
export function logoTypeOf(contentType: string | undefined): LogoContentType | null {
  const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return (LOGO_CONTENT_TYPES as readonly string[]).includes(mediaType) ? (mediaType as LogoContentType) : null;
}
