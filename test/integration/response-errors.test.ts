import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable, Writable } from 'node:stream';
import Koa from 'koa';
import pino from 'pino';
import { responseErrorListener } from '../../gateway/middleware/error-handler';
import { requestContext } from '../../gateway/middleware/request-context';

/** Log lines written by a pino logger, parsed. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(JSON.parse(chunk.toString()));
      callback();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

/** A body that sends its first chunk, then fails as a storage read can. */
function failingBody(): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (sent) {
        this.destroy(Object.assign(new Error('read failed'), { code: 'EIO' }));
        return;
      }
      sent = true;
      this.push(Buffer.alloc(64 * 1024, 1));
    },
  });
}

describe('a response body that fails mid-way', function () {
  this.timeout(10_000);
  let server: http.Server;
  let baseUrl: string;
  const { logger, lines } = capturingLogger();

  before(async () => {
    const app = new Koa();
    app.use(requestContext());
    app.on('error', responseErrorListener(logger));
    app.use((ctx) => {
      ctx.length = 1024 * 1024;
      ctx.body = failingBody();
    });
    server = http.createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  it('closes the connection instead of leaving the client waiting, and logs the failure under the request id', async () => {
    const outcome = await fetch(baseUrl, { headers: { 'x-request-id': 'cut-short-1' } })
      .then((response) => response.arrayBuffer())
      .then(() => 'complete', () => 'connection closed');
    expect(outcome).to.equal('connection closed');
    const logged = lines.find((line) => line.msg === 'response body failed mid-way');
    expect(logged).to.include({ level: 50, requestId: 'cut-short-1' });
    expect((logged?.err as { message: string }).message).to.equal('read failed');
  });
});
