import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SignedGrant, Verdict } from '../signed-object-access';

/** Query parameter names of signed URLs; the signature covers every one of them. */
export const SIGNED_URL_PARAMS = {
  method: 'X-Method',
  expires: 'X-Expires',
  disposition: 'X-Disposition',
  contentType: 'X-Content-Type',
  contentLength: 'X-Length',
  uploadId: 'X-Upload-Id',
  partNumber: 'X-Part-Number',
  signature: 'X-Signature',
} as const;
const PARAM = SIGNED_URL_PARAMS;

/** HMAC-SHA256 signed URLs for the embedded object store, checked in constant time. */
export class UrlSigner {
  constructor(private readonly secret: Buffer) {}

  /** Query string (without '?') that grants `grant`. */
  sign(grant: SignedGrant): string {
    const parts = [`${PARAM.method}=${grant.method}`, `${PARAM.expires}=${grant.expires}`];
    if (grant.disposition !== undefined) parts.push(`${PARAM.disposition}=${encodeURIComponent(grant.disposition)}`);
    if (grant.contentType !== undefined) parts.push(`${PARAM.contentType}=${encodeURIComponent(grant.contentType)}`);
    if (grant.contentLength !== undefined) parts.push(`${PARAM.contentLength}=${grant.contentLength}`);
    if (grant.uploadId !== undefined) parts.push(`${PARAM.uploadId}=${encodeURIComponent(grant.uploadId)}`);
    if (grant.partNumber !== undefined) parts.push(`${PARAM.partNumber}=${grant.partNumber}`);
    parts.push(`${PARAM.signature}=${this.mac(grant).toString('hex')}`);
    return parts.join('&');
  }

  /** Reads the grant of a request's query; `method` is the request's (a GET grant serves HEAD too, a HEAD grant only HEAD). */
  verify(method: string, key: string, query: URLSearchParams, now: Date = new Date()): { verdict: Verdict; grant?: SignedGrant } {
    const grantedMethod = query.get(PARAM.method) as SignedGrant['method'] | null;
    const requestMethod = method === 'HEAD' && grantedMethod === 'GET' ? 'GET' : method;
    const expires = Number(query.get(PARAM.expires));
    const signature = query.get(PARAM.signature) ?? '';
    const lengthParam = query.get(PARAM.contentLength);
    const partParam = query.get(PARAM.partNumber);
    if (grantedMethod !== requestMethod || !Number.isSafeInteger(expires) || !/^[0-9a-f]{64}$/.test(signature)) {
      return { verdict: 'invalid' };
    }
    const grant: SignedGrant = {
      method: grantedMethod,
      key,
      expires,
      disposition: query.get(PARAM.disposition) ?? undefined,
      contentType: query.get(PARAM.contentType) ?? undefined,
      contentLength: lengthParam === null ? undefined : Number(lengthParam),
      uploadId: query.get(PARAM.uploadId) ?? undefined,
      partNumber: partParam === null ? undefined : Number(partParam),
    };
    if (!timingSafeEqual(this.mac(grant), Buffer.from(signature, 'hex'))) return { verdict: 'invalid' };
    if (expires * 1000 <= now.getTime()) return { verdict: 'expired', grant };
    return { verdict: 'valid', grant };
  }

  private mac(grant: SignedGrant): Buffer {
    // Length-prefixed fields: no value can be shifted into its neighbour to forge another grant.
    const fields = [grant.method, grant.key, String(grant.expires), grant.disposition ?? '', grant.contentType ?? '',
      grant.contentLength === undefined ? '' : String(grant.contentLength)];
    // Only part grants carry these, so every URL signed before parts existed keeps its signature.
    if (grant.uploadId !== undefined || grant.partNumber !== undefined) fields.push(grant.uploadId ?? '', grant.partNumber === undefined ? '' : String(grant.partNumber));
    const hmac = createHmac('sha256', this.secret);
    for (const field of fields) hmac.update(`${Buffer.byteLength(field)}:${field}\n`);
    return hmac.digest();
  }
}
