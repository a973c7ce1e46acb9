/**
 * The method of the request Node's HTTP parser refused, as far as the bytes it failed on tell: a HEAD
 * is answered without a body, any other request with the error envelope, and a request whose method
 * the bytes do not tell without a body too (a HEAD must never get one).
 */
export type RefusedMethod = 'HEAD' | 'other' | 'unknown';

/** What the parser's error and its socket say of the bytes the refusal is about. */
export interface ParserFailure {
  /** The bytes of the read the parser failed in (`rawPacket` of the clientError). */
  packet: Buffer | undefined;
  /** Where in them it failed (`bytesParsed`). */
  errorAt: number | undefined;
  /** Every byte read on the connection so far, the packet's included (`socket.bytesRead`). */
  bytesRead: number;
}

const CR = 0x0d;
const LF = 0x0a;
const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');
const HEAD_METHOD = Buffer.from('HEAD ');

/**
 * Whether the refused request is a HEAD. The packet is read from its start as the parser read it:
 * request after request (empty lines before a request line skipped, RFC 9112 2.2), each head to its
 * empty line and its body by Content-Length or chunk by chunk, up to the request in which the
 * failure lies (its head, at its end, or its body). That needs the packet to be the first bytes of
 * the connection: one read after others may begin inside a request, whose method is then unknown.
 * A failure without bytes (the headers' timeout) on a connection that sent nothing is no request.
 */
export function refusedRequestMethod({ packet, errorAt, bytesRead }: ParserFailure): RefusedMethod {
  if (!Buffer.isBuffer(packet)) return bytesRead === 0 ? 'other' : 'unknown';
  if (bytesRead !== packet.length) return 'unknown';
  const failedAt = typeof errorAt === 'number' ? errorAt : packet.length;
  let start = 0;
  for (;;) {
    while (packet[start] === CR || packet[start] === LF) start += 1;
    const method: RefusedMethod = packet.subarray(start, start + HEAD_METHOD.length).equals(HEAD_METHOD) ? 'HEAD' : 'other';
    const headEnd = packet.indexOf(HEAD_END, start);
    // Failures found once the head is complete (its framing headers) are reported at its end.
    if (headEnd < 0 || failedAt <= headEnd + HEAD_END.length) return method;
    const bodyEnd = endOfBody(packet, start, headEnd + HEAD_END.length);
    if (failedAt < bodyEnd) return method;
    start = bodyEnd;
  }
}

/**
 * Where the body of the request whose head spans `headStart` to `bodyStart` ends in `packet`:
 * Infinity when it runs past the packet or cannot be read, the failure being in it then.
 */
function endOfBody(packet: Buffer, headStart: number, bodyStart: number): number {
  let contentLength = 0;
  let chunked = false;
  for (const line of packet.toString('latin1', headStart, bodyStart).split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    // The parser accepted this head: a Transfer-Encoding of a request ends in chunked, and a
    // Content-Length is digits, never beside it.
    if (name === 'transfer-encoding') chunked = true;
    else if (name === 'content-length') contentLength = Number(value);
  }
  if (chunked) return endOfChunks(packet, bodyStart);
  return Number.isSafeInteger(contentLength) ? bodyStart + contentLength : Infinity;
}

/** Where a chunked body starting at `at` ends (after its last chunk and trailer fields), or Infinity. */
function endOfChunks(packet: Buffer, at: number): number {
  let position = at;
  for (;;) {
    const lineEnd = packet.indexOf(CRLF, position);
    if (lineEnd < 0) return Infinity;
    const size = /^([0-9A-Fa-f]{1,12})[ \t]*(?:;.*)?$/.exec(packet.toString('latin1', position, lineEnd));
    if (!size) return Infinity;
    position = lineEnd + CRLF.length;
    const bytes = parseInt(size[1], 16);
    if (bytes > 0) {
      position += bytes + CRLF.length;
      continue;
    }
    // The last chunk: trailer fields up to an empty line.
    for (;;) {
      const fieldEnd = packet.indexOf(CRLF, position);
      if (fieldEnd < 0) return Infinity;
      if (fieldEnd === position) return position + CRLF.length;
      position = fieldEnd + CRLF.length;
    }
  }
}

/**
 * The method a connection's first bytes begin a request with: what a refusal in a later read of that
 * first request's head (a head spread over several reads) is answered by. `unknown` until the
 * request line's method is whole in them.
 */
export function methodOfFirstBytes(chunk: Buffer): RefusedMethod {
  let start = 0;
  while (chunk[start] === CR || chunk[start] === LF) start += 1;
  const space = chunk.indexOf(0x20, start);
  if (space < 0) return 'unknown';
  return chunk.subarray(start, space + 1).equals(HEAD_METHOD) ? 'HEAD' : 'other';
}
