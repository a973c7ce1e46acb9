import type { Config, S3Config } from '../../shared/config';

/**
 * The origins a browser app may send requests to besides its own: the bucket, where the console's
 * upload parts go straight to pre-signed URLs when the service stores files on S3.
 */
export function bucketOrigins(s3: S3Config | undefined): string[] {
  if (!s3) return [];
  if (s3.endpoint) {
    const endpoint = new URL(s3.endpoint);
    return s3.forcePathStyle ? [endpoint.origin] : [`${endpoint.protocol}//${s3.bucket}.${endpoint.host}`];
  }
  // AWS itself: pre-signed URLs name the bucket in the host (virtual-hosted style) unless path style is forced.
  return s3.forcePathStyle
    ? [`https://s3.${s3.region}.amazonaws.com`]
    : [`https://${s3.bucket}.s3.${s3.region}.amazonaws.com`, `https://${s3.bucket}.s3.amazonaws.com`];
}

/**
 * The Content-Security-Policy of the console and the portal: scripts, styles, images and fonts from the
 * service itself only (images also from blob: URLs the page made itself; no inline script or style, no
 * other origin), requests to the service and the bucket, no framing, no plugins, no base URL.
 */
export function webAppPolicy(config: Pick<Config, 's3'>): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    // blob: the portal's logos, fetched with the bearer header and shown from memory.
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${bucketOrigins(config.s3).map((origin) => ` ${origin}`).join('')}`,
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}
