import { expect } from 'chai';
import http from 'node:http';
import net from 'node:net';
import { REQUEST_HEAD_MAX_BYTES, REQUEST_HEAD_PARSER_MAX_BYTES } from '../../shared/policy';
import { createCustomer } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

interface Exchange {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request through Node's own client, which fails the exchange when an answer to HEAD carries a body. */
function nodeRequest(port: number, method: string, path: string, headers: http.OutgoingHttpHeaders = {}): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      // Bytes left after a HEAD answer reach the socket's parser as a new response: an 'error' after 'end'.
      response.on('end', () => setImmediate(() => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) })));
    });
    request.on('error', reject);
    request.end();
  });
}

/**
 * Every byte the server sends for `head` until it closes, split at the end of its head. A head given
 * in parts is written part by part, each once the server has read the one before (its own read).
 */
function rawExchange(port: number, head: string | string[]): Promise<{ statusLine: string; headers: Record<string, string>; rest: Buffer }> {
  return new Promise((resolve, reject) => {
    const parts = typeof head === 'string' ? [head] : head;
    const writeFrom = (i: number): void => {
      if (i === parts.length - 1) socket.end(parts[i]);
      else socket.write(parts[i], () => setTimeout(() => writeFrom(i + 1), 50));
    };
    const socket = net.connect(port, '127.0.0.1', () => writeFrom(0));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      if (end < 0) return reject(new Error(`no complete answer: ${JSON.stringify(all.toString('latin1'))}`));
      const [statusLine, ...lines] = all.subarray(0, end).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ statusLine, headers, rest: all.subarray(end + 4) });
    });
  });
}

/**
 * Every answer the server sends on one connection to `first`, then (once the first answer arrived)
 * to `then`, until it closes: each answer's head and the bytes up to the next status line (a HEAD's
 * answer is its head alone).
 */
function pipelined(port: number, first: string, then?: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(Buffer.from(first, 'latin1')));
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (then !== undefined && received.includes('\r\n\r\n')) {
        socket.end(Buffer.from(then, 'latin1'));
        then = undefined;
      }
    });
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no end: ${JSON.stringify(received)}`)));
    socket.on('error', reject);
    socket.on('close', () => resolve(received.split(/(?=HTTP\/1\.1 \d{3} )/)));
  });
}

/**
 * Every answer to HEAD, refusals included, whether the app or the HTTP layer before it refuses: the
 * status and headers a GET gets, Content-Length included, and no body.
 */
describe('answers to HEAD', () => {
  let app: TestApp;
  let port: number;
  let customerKey: string;

  before(async () => {
    app = await startTestApp({ workers: false });
    port = Number(new URL(app.baseUrl).port);
    customerKey = (await createCustomer(app)).apiKey;
  });
  after(() => app?.close());

  const longQuery = (bytes: number) => `/v1/downloads/url?applicationId=${'a'.repeat(bytes)}&version=1`;

  const cases: Array<[string, () => [string, http.OutgoingHttpHeaders], number]> = [
    ['a query over the head limit', () => [longQuery(REQUEST_HEAD_MAX_BYTES), {}], 431],
    ['a header over the head limit', () => ['/healthz', { 'x-trace': 'a'.repeat(REQUEST_HEAD_MAX_BYTES) }], 431],
    ['an unknown path', () => ['/v1/nowhere', {}], 404],
    ['a path without GET', () => ['/v1/management/upload/large-url', {}], 405],
    ['no key', () => ['/v1/downloads/url?applicationId=app&version=1', {}], 401],
    ['an invalid query', () => ['/v1/downloads/url?version=1&colour=red', { authorization: `Bearer ${customerKey}` }], 400],
    ['an unmet expectation', () => ['/healthz', { expect: 'teapot' }], 417],
    ['a success', () => ['/healthz', {}], 200],
  ];

  for (const [label, request, status] of cases) {
    it(`answers HEAD with ${label} (${status}) as GET, without a body, and Node's client completes the exchange`, async () => {
      const [path, headers] = request();
      const get = await nodeRequest(port, 'GET', path, headers);
      expect(get.status, get.body.toString()).to.equal(status);
      expect(get.body.length).to.be.greaterThan(0);
      expect(Number(get.headers['content-length'])).to.equal(get.body.length);

      const head = await nodeRequest(port, 'HEAD', path, headers);
      expect(head.status).to.equal(status);
      expect(head.body.length).to.equal(0);
      expect(head.headers['content-length']).to.equal(String(get.body.length));
      expect(head.headers['content-type']).to.equal(get.headers['content-type']);

      const raw = await rawExchange(port, `HEAD ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${String(value)}\r\n`).join('')}\r\n`);
      expect(raw.statusLine).to.match(new RegExp(`^HTTP/1.1 ${status} `));
      expect(raw.headers['content-length']).to.equal(String(get.body.length));
      expect(raw.rest.toString('latin1'), 'bytes after the head').to.equal('');
    });
  }

  /**
   * Requests Node's parser refuses after their head is complete, or in the request line: a HEAD gets
   * the head a GET gets, the same Content-Length included, and not one byte after it.
   */
  const parserRefusals: Array<[string, (method: string) => string]> = [
    ['an unknown HTTP version', (method) => `${method} /healthz HTTP/1.7\r\nHost: localhost\r\n\r\n`],
    ['two Content-Length headers', (method) => `${method} /healthz HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nContent-Length: 1\r\n\r\n`],
    ['a control byte in the target', (method) => `${method} /hea\u0001lthz HTTP/1.1\r\nHost: localhost\r\n\r\n`],
    ['a control byte in a header value', (method) => `${method} /healthz HTTP/1.1\r\nHost: localhost\r\nX-Trace: a\u0001b\r\n\r\n`],
    ['an invalid header name', (method) => `${method} /healthz HTTP/1.1\r\nHost: localhost\r\nX Trace: a\r\n\r\n`],
    ['a Transfer-Encoding not ending in chunked', (method) => `${method} /healthz HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: foo\r\n\r\n`],
  ];

  for (const [label, request] of parserRefusals) {
    it(`answers a HEAD the parser refuses for ${label} without a body, as a GET with the envelope`, async () => {
      const get = await rawExchange(port, request('GET'));
      expect(get.statusLine).to.match(/^HTTP\/1.1 400 /);
      expect(JSON.parse(get.rest.toString('utf8'))).to.deep.include({ success: false });
      expect(Number(get.headers['content-length'])).to.equal(get.rest.length);

      const head = await rawExchange(port, request('HEAD'));
      expect(head.statusLine).to.match(/^HTTP\/1.1 400 /);
      expect(head.headers['content-length']).to.equal(get.headers['content-length']);
      expect(head.headers['x-request-id']).to.be.a('string');
      expect(head.rest.toString('latin1'), 'bytes after the head').to.equal('');
    });
  }

  it('finds the refused HEAD after complete requests in the same bytes, their bodies (by length or in chunks) skipped', async () => {
    const refusedHead = 'HEAD /healthz HTTP/1.7\r\nHost: localhost\r\n\r\n';
    const before = [
      'GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n',
      // A body that reads as a request line, by its length and in chunks.
      'POST /healthz HTTP/1.1\r\nHost: localhost\r\nContent-Length: 24\r\n\r\nGET / HTTP/1.1\r\nX: y\r\n\r\n',
      'POST /healthz HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nGET \r\n10\r\n/ HTTP/1.1\r\n\r\n\r\n\r\n0\r\nX-Trailer: 1\r\n\r\n',
    ];
    for (const earlier of before) {
      const answers = await pipelined(port, `${earlier}${refusedHead}`);
      const refusal = answers.at(-1) as string;
      expect(refusal, earlier).to.match(/^HTTP\/1.1 400 /);
      expect(refusal.endsWith('\r\n\r\n'), `${earlier}: bytes after the refusal's head: ${JSON.stringify(refusal)}`).to.equal(true);
    }
    // The same bytes with a GET refused last: its envelope follows.
    const answers = await pipelined(port, `${before[2]}GET /healthz HTTP/1.7\r\nHost: localhost\r\n\r\n`);
    expect(answers.at(-1)).to.match(/^HTTP\/1.1 400 [^]*\r\n\r\n\{"success":false/);
  });

  it('answers a refusal whose bytes do not tell the method (read after others on the connection) without a body', async () => {
    for (const method of ['HEAD', 'GET']) {
      const answers = await pipelined(port, 'GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n', `${method} /healthz HTTP/1.7\r\nHost: localhost\r\n\r\n`);
      expect(answers).to.have.length(2);
      expect(answers[0]).to.match(/^HTTP\/1.1 200 /);
      expect(answers[1]).to.match(/^HTTP\/1.1 400 [^]*\r\ncontent-length: 0\r\n/i);
      expect(answers[1].endsWith('\r\n\r\n'), `${method}: ${JSON.stringify(answers[1])}`).to.equal(true);
    }
  });

  it('answers a refusal in a later read of the first head by the method the connection began with', async () => {
    // The parser fails in the second read, whose bytes begin inside the request line's target.
    const tooLong = `${'a'.repeat(REQUEST_HEAD_PARSER_MAX_BYTES)} HTTP/1.1\r\nHost: localhost\r\n\r\n`;
    const get = await rawExchange(port, ['GET /healthz?q=', tooLong]);
    expect(get.statusLine).to.match(/^HTTP\/1.1 431 /);
    expect(JSON.parse(get.rest.toString('utf8'))).to.deep.include({ success: false });
    expect(get.rest.length).to.equal(Number(get.headers['content-length']));
    const head = await rawExchange(port, ['HEAD /healthz?q=', tooLong]);
    expect(head.statusLine).to.match(/^HTTP\/1.1 431 /);
    expect(head.rest.toString('latin1')).to.equal('');
  });

  it('answers HEAD without Host (400) and with a head only Node\'s parser refuses (431) without a body', async () => {
    const noHost = await rawExchange(port, 'HEAD /healthz HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(noHost.statusLine).to.match(/^HTTP\/1.1 400 /);
    expect(Number(noHost.headers['content-length'])).to.be.greaterThan(0);
    expect(noHost.rest.toString('latin1')).to.equal('');

    const huge = `?q=${'a'.repeat(REQUEST_HEAD_PARSER_MAX_BYTES)}`;
    const getHuge = await rawExchange(port, `GET /healthz${huge} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(getHuge.statusLine).to.match(/^HTTP\/1.1 431 /);
    expect(getHuge.rest.length).to.equal(Number(getHuge.headers['content-length']));
    const headHuge = await rawExchange(port, `HEAD /healthz${huge} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(headHuge.statusLine).to.match(/^HTTP\/1.1 431 /);
    expect(headHuge.headers['content-length']).to.equal(getHuge.headers['content-length']);
    expect(headHuge.rest.toString('latin1')).to.equal('');
    // Empty lines before the request line are allowed, and skipped.
    const afterEmptyLines = await rawExchange(port, `\r\nHEAD /healthz${huge} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(afterEmptyLines.statusLine).to.match(/^HTTP\/1.1 431 /);
    expect(afterEmptyLines.rest.toString('latin1')).to.equal('');
  });
});
