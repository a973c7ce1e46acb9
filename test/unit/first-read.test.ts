import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { onFirstRead, parsedNatively } from '../../gateway/http/first-read';
import { answerProtocolErrors, PROTOCOL_SERVER_OPTIONS } from '../../gateway/http/protocol-errors';

/** Two requests on one kept-alive connection to `server`; the server's side of that connection. */
async function twoRequestsOnOneConnection(server: http.Server): Promise<Socket> {
  const sockets: Socket[] = [];
  server.on('connection', (socket: Socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (const path of ['/first', '/second']) {
      await new Promise<void>((resolve, reject) => {
        http.get({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path, agent }, (response) => {
          response.resume();
          response.on('end', resolve);
        }).on('error', reject);
      });
    }
  } finally {
    agent.destroy();
  }
  expect(sockets, 'one connection for both requests').to.have.length(1);
  return sockets[0];
}

describe("a connection's first read", () => {
  const servers: http.Server[] = [];
  const serve = (server: http.Server) => {
    servers.push(server);
    return server;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });

  it("is seen once, and the connection stays on the parser's native reads for every later request", async () => {
    const server = serve(http.createServer((_req, res) => res.end('ok')));
    const seen: string[] = [];
    server.on('connection', (socket: Socket) => onFirstRead(socket, (chunk) => seen.push(chunk.toString('latin1'))));
    const socket = await twoRequestsOnOneConnection(server);
    expect(seen).to.have.length(1);
    expect(seen[0]).to.match(/^GET \/first HTTP\/1.1\r\n/);
    expect(parsedNatively(socket)).to.equal(true);
  });

  it("is taken off the native reads by a 'data' listener, which is what onFirstRead avoids", async () => {
    const server = serve(http.createServer((_req, res) => res.end('ok')));
    server.on('connection', (socket: Socket) => socket.once('data', () => undefined));
    expect(parsedNatively(await twoRequestsOnOneConnection(server))).to.equal(false);
  });

  it("stays native behind the gateway's refusals of malformed requests, which read the first bytes", async () => {
    const server = serve(http.createServer(PROTOCOL_SERVER_OPTIONS));
    server.on('request', answerProtocolErrors(server, (_req, res) => res.end('ok')));
    expect(parsedNatively(await twoRequestsOnOneConnection(server))).to.equal(true);
  });
});
