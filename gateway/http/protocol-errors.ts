import http, { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorCode } from '../../shared/errors';
import { newRequestId } from '../../shared/ids';
import { REQUEST_HEAD_MAX_BYTES, REQUEST_HEAD_PARSER_MAX_BYTES } from '../../shared/policy';
import { onFirstRead } from './first-read';
import { methodOfFirstBytes, type RefusedMethod, refusedRequestMethod } from './refused-request';

interface Refusal {
  status: number;
  code: ErrorCode;
  message: string;
}

const NOT_HTTP: Refusal = { status: 400, code: 'BAD_REQUEST', message: 'the request is not valid HTTP/1.1' };
const NO_HOST: Refusal = { status: 400, code: 'BAD_REQUEST', message: 'an HTTP/1.1 request needs a Host header' };
const UNMET_EXPECTATION: Refusal = { status: 417, code: 'EXPECTATION_FAILED', message: 'the only expectation this service meets is 100-continue' };

const HEADERS_TOO_LARGE: Refusal = { status: 431, code: 'HEADERS_TOO_LARGE', message: 'the request headers are too large' };

/** Node's parser error codes whose answer is not a plain 400. */
const REFUSALS_BY_PARSER_CODE: Record<string, Refusal> = {
  HPE_HEADER_OVERFLOW: HEADERS_TOO_LARGE,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'the chunk extensions are too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'REQUEST_TIMEOUT', message: 'the request headers did not arrive in time' },
};

/**
 * What the gateway's server is created with: Node leaves the check of Host to answerProtocolErrors,
 * and its parser takes heads larger than the service does, so that the listener refuses those itself.
 */
export const PROTOCOL_SERVER_OPTIONS: http.ServerOptions = { requireHostHeader: false, maxHeaderSize: REQUEST_HEAD_PARSER_MAX_BYTES };

/**
 * Requests refused before the app sees them: bytes that are not HTTP/1.1, headers too large, an
 * HTTP/1.1 request without Host, an Expect other than 100-continue. Node answers these with a bare
 * status line; here they get the error envelope and a request id like every other error. An answer
 * to HEAD has the headers a GET's would have (its Content-Length included) and no body (RFC 9110);
 * when the bytes the parser refused do not tell whether the request was a HEAD, the answer has no
 * body whatever it was (`refused-request.ts`).
 * Returns the request listener to serve with, which refuses a request without Host, or whose head is
 * over REQUEST_HEAD_MAX_BYTES, itself: the server must be created with PROTOCOL_SERVER_OPTIONS.
 */
export function answerProtocolErrors(server: http.Server, listener: http.RequestListener): http.RequestListener {
  // The method each connection's first bytes begin with, for a refusal in a later read of its first
  // request's head; connections that have had a request reach the app are not asked.
  const firstMethods = new WeakMap<Socket, RefusedMethod>();
  const served = new WeakSet<Socket>();
  server.on('connection', (socket: Socket) => {
    onFirstRead(socket, (chunk) => firstMethods.set(socket, methodOfFirstBytes(chunk)));
  });
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer; bytesParsed?: number }, socket: Socket) => {
    // A response already on its way cannot be followed by another on the same bytes.
    const inFlight = (socket as { _httpMessage?: ServerResponse })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const refusal = REFUSALS_BY_PARSER_CODE[error.code ?? ''] ?? NOT_HTTP;
    // A failure without bytes (a body cut short by the connection's end) is about the request the app
    // already has, which tells its method itself; else the bytes the parser failed on may tell it.
    const inFlightMethod = Buffer.isBuffer(error.rawPacket) ? undefined : inFlight?.req?.method;
    let method: RefusedMethod = inFlightMethod !== undefined ? (inFlightMethod === 'HEAD' ? 'HEAD' : 'other')
      : refusedRequestMethod({ packet: error.rawPacket, errorAt: error.bytesParsed, bytesRead: socket.bytesRead });
    if (method === 'unknown' && !served.has(socket)) method = firstMethods.get(socket) ?? 'unknown';
    // A method the bytes do not tell may be HEAD's: no body, and no length of one.
    const body = method === 'unknown' ? '' : envelope(refusal);
    const head = [
      `HTTP/1.1 ${refusal.status} ${http.STATUS_CODES[refusal.status]}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `X-Request-Id: ${newRequestId()}`,
      'Connection: close',
    ];
    const answer = `${head.join('\r\n')}\r\n\r\n`;
    socket.end(method === 'other' ? `${answer}${body}` : answer, () => socket.destroy());
  });
  server.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) => refuse(response, UNMET_EXPECTATION));
  return (request, response) => {
    if (request.httpVersionMajor === 1 && request.httpVersionMinor === 1 && request.headers.host === undefined) {
      refuse(response, NO_HOST);
      return;
    }
    if (headBytes(request) > REQUEST_HEAD_MAX_BYTES) {
      refuse(response, HEADERS_TOO_LARGE);
      return;
    }
    served.add(request.socket);
    listener(request, response);
  };
}

/** The bytes of a request's target and headers, as Node's parser counts them against its limit (within a few per line). */
function headBytes(request: IncomingMessage): number {
  let bytes = (request.url as string).length;
  const raw = request.rawHeaders;
  for (let i = 0; i < raw.length; i += 1) bytes += raw[i].length;
  return bytes;
}

function envelope({ code, message }: Refusal): string {
  return JSON.stringify({ success: false, error: { code, message } });
}

/** Node's response sends no body for a HEAD, the Content-Length stated being that of the GET's. */
function refuse(response: ServerResponse, refusal: Refusal): void {
  const body = envelope(refusal);
  response.writeHead(refusal.status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'X-Request-Id': newRequestId(),
    Connection: 'close',
  });
  response.end(body);
}
