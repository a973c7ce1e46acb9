/**
 * Reads a `multipart/byteranges` body (RFC 9110 §14.6, RFC 2046 §5.1) on its own, without the
 * service's code: the boundary from the Content-Type, then each part's headers and bytes, which end
 * at the CRLF before the next delimiter. Throws on anything out of form: a part without its blank
 * line, bytes after the closing delimiter, a part whose length differs from its Content-Range.
 */
export interface BytesPart {
  contentType: string | undefined;
  contentRange: string | undefined;
  bytes: Buffer;
}

export function parseByteranges(contentType: string | null, body: Buffer): BytesPart[] {
  const match = /^multipart\/byteranges;\s*boundary=("?)([^";]+)\1$/i.exec(contentType ?? '');
  if (!match) throw new Error(`not a multipart/byteranges answer: ${contentType}`);
  const delimiter = Buffer.from(`--${match[2]}`);
  if (!body.subarray(0, delimiter.length).equals(delimiter)) throw new Error('the body does not open with the boundary');
  const parts: BytesPart[] = [];
  let position = delimiter.length;
  for (;;) {
    if (body.subarray(position, position + 2).toString('latin1') === '--') {
      if (body.subarray(position + 2).toString('latin1') !== '\r\n') throw new Error('bytes after the closing delimiter');
      return parts;
    }
    if (body.subarray(position, position + 2).toString('latin1') !== '\r\n') throw new Error('no CRLF after a delimiter');
    const headersEnd = body.indexOf('\r\n\r\n', position + 2, 'latin1');
    if (headersEnd < 0) throw new Error('a part without the blank line after its headers');
    const headers = new Map(body.subarray(position + 2, headersEnd).toString('latin1').split('\r\n').map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()] as const;
    }));
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headersEnd + 4);
    if (next < 0) throw new Error('a part without a delimiter after it');
    const bytes = body.subarray(headersEnd + 4, next);
    const contentRange = headers.get('content-range');
    const range = /^bytes (\d+)-(\d+)\/\d+$/.exec(contentRange ?? '');
    if (!range || Number(range[2]) - Number(range[1]) + 1 !== bytes.length) throw new Error(`a part of ${bytes.length} bytes with Content-Range ${contentRange}`);
    parts.push({ contentType: headers.get('content-type'), contentRange, bytes });
    position = next + 2 + delimiter.length;
  }
}
