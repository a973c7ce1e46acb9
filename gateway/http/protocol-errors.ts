import http, { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorCode } from '../../shared/errors';
import { newRequestId } from '../../shared/ids';

interface Refusal {
  status: number;
  code: ErrorCode;
  message: string;
}

const NOT_HTTP: Refusal = { status: 400, code: 'BAD_REQUEST', message: 'the request is not valid HTTP/1.1' };
const NO_HOST: Refusal = { status: 400, code: 'BAD_REQUEST', message: 'an HTTP/1.1 request needs a Host header' };
const UNMET_EXPECTATION: Refusal = { status: 417, code: 'EXPECTATION_FAILED', message: 'the only expectation this service meets is 100-continue' };

/** Node's parser error codes whose answer is not a plain 400. */
const REFUSALS_BY_PARSER_CODE: Record<string, Refusal> = {
  HPE_HEADER_OVERFLOW: { status: 431, code: 'HEADERS_TOO_LARGE', message: 'the request headers are too large' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'the chunk extensions are too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'REQUEST_TIMEOUT', message: 'the request headers did not arrive in time' },
};

/**
 * Requests refused before the app sees them: bytes that are not HTTP/1.1, headers too large, an
 * HTTP/1.1 request without Host, an Expect other than 100-continue. Node answers these with a bare
 * status line; here they get the error envelope and a request id like every other error.
 * Returns the request listener to serve with, which refuses a request without Host itself: the
 * server must be created with `requireHostHeader: false` so that Node leaves it that check.
 */
export function answerProtocolErrors(server: http.Server, listener: http.RequestListener): http.RequestListener {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // A response already on its way cannot be followed by another on the same bytes.
    const inFlight = (socket as { _httpMessage?: ServerResponse })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const refusal = REFUSALS_BY_PARSER_CODE[error.code ?? ''] ?? NOT_HTTP;
    const body = envelope(refusal);
    const head = [
      `HTTP/1.1 ${refusal.status} ${http.STATUS_CODES[refusal.status]}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `X-Request-Id: ${newRequestId()}`,
      'Connection: close',
    ];
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
  });
  server.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) => refuse(response, UNMET_EXPECTATION));
  return (request, response) => {
    if (request.httpVersionMajor === 1 && request.httpVersionMinor === 1 && request.headers.host === undefined) {
      refuse(response, NO_HOST);
      return;
    }
    listener(request, response);
  };
}

function envelope({ code, message }: Refusal): string {
  return JSON.stringify({ success: false, error: { code, message } });
}

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
