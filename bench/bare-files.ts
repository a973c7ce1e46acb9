/**
 * The bytes-path baseline: a bare node:http server over one directory, doing with the bytes what the
 * service does and nothing else (no routing, signatures, records or hashing). Run as its own process;
 * argument: <dir>; prints "listening <port>". Uploads should go to new names, as the service's do:
 * ext4 flushes a file truncated and rewritten when it is closed.
 * - PUT /<name>: pipes the body to the file.
 * - GET /<name>: streams the file, or the one range of a `Range: bytes=a-b` header.
 * - POST /<name>: parses a multipart body with busboy and pipes its file part to the file.
 * - POST /<name>?digests: the same, also computing the file part's SHA-256 and SHA-512 on the way,
 *   the work every upload requires of the service (which does it on its hashing threads).
 */
import busboy from 'busboy';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

const dir = process.argv[2];

const server = http.createServer((req, res) => {
  const [pathname, query] = (req.url ?? '/').split('?');
  const file = path.join(dir, path.basename(decodeURIComponent(pathname)));
  const handle = req.method === 'PUT' ? put : req.method === 'GET' ? get : req.method === 'POST' ? (query === 'digests' ? postDigested : post) : undefined;
  if (!handle) return answer(res, 405, {});
  handle(file, req, res).catch((error: Error) => {
    if (!res.headersSent) answer(res, 500, { error: error.message });
    else res.destroy(error);
  });
});

async function put(file: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  await pipeline(req, fs.createWriteStream(file));
  answer(res, 200, { size: fs.statSync(file).size });
}

async function get(file: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const size = fs.statSync(file).size;
  const match = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
  const start = match ? Number(match[1]) : 0;
  const end = match && match[2] !== '' ? Number(match[2]) : size - 1;
  res.writeHead(match ? 206 : 200, {
    'content-type': 'application/octet-stream',
    'content-length': end - start + 1,
    ...(match ? { 'content-range': `bytes ${start}-${end}/${size}` } : {}),
  });
  // The service's read size: 1 MiB reads stream twice as fast as the default 64 KiB.
  await pipeline(fs.createReadStream(file, { start, end, highWaterMark: 1024 * 1024 }), res);
}

async function post(file: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const parser = busboy({ headers: req.headers });
  let written: Promise<void> | undefined;
  parser.on('file', (_name, stream) => {
    written = pipeline(stream, fs.createWriteStream(file));
  });
  await pipeline(req, parser);
  await written;
  answer(res, 201, { size: fs.statSync(file).size });
}

async function postDigested(file: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const parser = busboy({ headers: req.headers });
  const sha256 = createHash('sha256');
  const sha512 = createHash('sha512');
  let written: Promise<void> | undefined;
  parser.on('file', (_name, stream) => {
    stream.on('data', (chunk: Buffer) => {
      sha256.update(chunk);
      sha512.update(chunk);
    });
    written = pipeline(stream, fs.createWriteStream(file));
  });
  await pipeline(req, parser);
  await written;
  answer(res, 201, { size: fs.statSync(file).size, sha256: sha256.digest('hex'), sha512: sha512.digest('hex') });
}

function answer(res: http.ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : ''}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
