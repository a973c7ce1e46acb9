import http from 'node:http';

/**
 * Sends a request's headers and no body, as a client that declares a length it never sends, and
 * resolves with the status the server answers before any body arrives. Rejects after `timeoutMs`:
 * a server still waiting for the body has not refused the declared length.
 */
export function statusForHeadersOnly(url: string, method: string, headers: http.OutgoingHttpHeaders, timeoutMs = 3_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers, agent: false });
    const timer = setTimeout(() => {
      request.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms to headers declaring ${String(headers['content-length'])} bytes`));
    }, timeoutMs);
    request.on('response', (response) => {
      clearTimeout(timer);
      response.resume();
      request.destroy();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.flushHeaders();
  });
}
