import { createHmac, randomBytes } from 'node:crypto';

/**
 * Signing as the Standard Webhooks specification defines it: a secret is `whsec_` and the base64 of
 * its key bytes; a signature is `v1,` and the base64 HMAC-SHA256, under those bytes, of
 * `<webhook-id>.<webhook-timestamp>.<body>`. Several signatures (during a secret rotation) are
 * separated by spaces in one `webhook-signature` header; a receiver accepts any that matches.
 */
const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

export function generateSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

export function signatureOf(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const mac = createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The three headers of one attempt, signed with every secret given (the current one first). */
export function signedHeaders(secrets: readonly string[], messageId: string, at: Date, body: string): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => signatureOf(secret, messageId, timestamp, body)).join(' '),
  };
}
