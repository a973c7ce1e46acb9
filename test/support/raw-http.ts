import net from 'node:net';

/**
 * HTTP/1.1 over a plain socket, for requests no HTTP client would send: control bytes in the path
 * or in header values, duplicated or contradictory headers, a declared length with no body, a body
 * cut off by closing the connection. Every byte is sent as given.
 */
export interface RawRequest {
  method: string;
  /** The request target (path and query), sent byte for byte (latin1). */
  target: string;
  /** In order, duplicates kept; values sent byte for byte (latin1). */
  headers: Array<[string, string]>;
  body?: Buffer;
  /** After the body, close our side of the connection: a client that gave up mid-request. */
  halfClose?: boolean;
}

export interface RawResponse {
  status: number;
  /** Header names lower-cased; repeated headers joined with ', '. */
  headers: Record<string, string>;
  body: Buffer;
}

/** What became of a request: an answer, the connection closed without one, or no answer in time. */
export type RawOutcome =
  | { kind: 'answered'; response: RawResponse }
  | { kind: 'closed'; error?: string }
  | { kind: 'timeout' };

const HEAD_END = Buffer.from('\r\n\r\n');

export function sendRaw(port: number, request: RawRequest, timeoutMs: number, host = '127.0.0.1'): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host, allowHalfOpen: true });
    let received = Buffer.alloc(0);
    let settled = false;
    const finish = (outcome: RawOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ kind: 'timeout' }), timeoutMs);
    const tryParse = (ended: boolean) => {
      const response = parseResponse(received, request.method === 'HEAD', ended);
      if (response) finish({ kind: 'answered', response });
      else if (ended) finish({ kind: 'closed' });
    };

    socket.on('connect', () => {
      socket.write(serializeHead(request));
      if (request.body?.length) socket.write(request.body);
      if (request.halfClose) socket.end();
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      tryParse(false);
    });
    socket.on('end', () => tryParse(true));
    socket.on('close', () => tryParse(true));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A reset after a complete answer (the server closing while our body was still arriving) is fine.
      const response = parseResponse(received, request.method === 'HEAD', true);
      finish(response ? { kind: 'answered', response } : { kind: 'closed', error: error.code ?? error.message });
    });
  });
}

function serializeHead(request: RawRequest): Buffer {
  const lines = [`${request.method} ${request.target} HTTP/1.1`, ...request.headers.map(([name, value]) => `${name}: ${value}`)];
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}

/** The first final (non-1xx) response in `data` once it is complete; undefined while it is not. */
function parseResponse(data: Buffer, isHead: boolean, ended: boolean): RawResponse | undefined {
  let offset = 0;
  for (;;) {
    const headEnd = data.indexOf(HEAD_END, offset);
    if (headEnd < 0) return undefined;
    const [statusLine, ...headerLines] = data.subarray(offset, headEnd).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
    if (!status) throw new Error(`not an HTTP response: ${JSON.stringify(statusLine)}`);
    const headers: Record<string, string> = {};
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    const bodyStart = headEnd + HEAD_END.length;
    if (status < 200) {
      offset = bodyStart;
      continue;
    }
    const rest = data.subarray(bodyStart);
    if (isHead || status === 204 || status === 304) return { status, headers, body: Buffer.alloc(0) };
    if (/\bchunked\b/i.test(headers['transfer-encoding'] ?? '')) {
      const body = dechunk(rest);
      return body ? { status, headers, body } : undefined;
    }
    if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      return rest.length >= length ? { status, headers, body: rest.subarray(0, length) } : undefined;
    }
    return ended ? { status, headers, body: rest } : undefined;
  }
}

/** A complete chunked body, decoded; undefined until its last chunk has arrived. */
function dechunk(data: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', offset);
    if (lineEnd < 0) return undefined;
    const size = parseInt(data.subarray(offset, lineEnd).toString('latin1'), 16);
    if (Number.isNaN(size)) throw new Error('malformed chunked response');
    if (size === 0) return Buffer.concat(parts);
    const start = lineEnd + 2;
    if (data.length < start + size + 2) return undefined;
    parts.push(data.subarray(start, start + size));
    offset = start + size + 2;
  }
}
