import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { WEBHOOK_DELIVERY_TIMEOUT_MS, WEBHOOK_RESPONSE_READ_MAX_BYTES } from '../policy';
import type { ResolvedDestination } from './destination';

/** What a receiver answered: its status and the start of its body. */
export interface ReceiverAnswer {
  status: number;
  body: string;
}

export interface PostOptions {
  timeoutMs?: number;
  maxResponseBytes?: number;
}

/**
 * POSTs one signed message to a checked destination, connecting to the address that was checked
 * (the name still goes in Host and, for https, in SNI and the certificate check). Redirects are
 * answers like any other (not followed); at most `maxResponseBytes` of the body are read. Rejects
 * when no status arrives within the timeout, which also bounds the reading of the body.
 */
export function postWebhook(destination: ResolvedDestination, headers: Record<string, string>, body: string, options: PostOptions = {}): Promise<ReceiverAnswer> {
  const timeoutMs = options.timeoutMs ?? WEBHOOK_DELIVERY_TIMEOUT_MS;
  const maxResponseBytes = options.maxResponseBytes ?? WEBHOOK_RESPONSE_READ_MAX_BYTES;
  const { url } = destination;
  const client = url.protocol === 'https:' ? https : http;
  const payload = Buffer.from(body, 'utf8');
  return new Promise<ReceiverAnswer>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | null, answer?: ReceiverAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      if (error) reject(error);
      else resolve(answer as ReceiverAnswer);
    };
    const request = client.request(url, {
      method: 'POST',
      agent: false,
      lookup: pinnedLookup(destination),
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(payload.length),
        'user-agent': 'binary-distribution-service-webhooks',
      },
    });
    const timer = setTimeout(() => finish(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    request.on('error', (error) => finish(new Error(connectionFailure(error))));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let received = 0;
      const done = () => finish(null, { status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
      response.on('data', (chunk: Buffer) => {
        const room = maxResponseBytes - received;
        if (room > 0) chunks.push(chunk.subarray(0, room));
        received += chunk.length;
        if (received >= maxResponseBytes) done();
      });
      response.on('end', done);
      response.on('error', done);
    });
    request.end(payload);
  });
}

/** A lookup that answers only the checked address, in either shape net.connect asks for. */
function pinnedLookup({ address, family }: ResolvedDestination): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as LookupFunction;
}

/** A short reason for the delivery log: the error's code (ECONNREFUSED, CERT_HAS_EXPIRED...) and message. */
function connectionFailure(error: NodeJS.ErrnoException): string {
  return error.code ? `${error.code}: ${error.message}` : error.message;
}
