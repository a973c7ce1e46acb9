import { expect } from 'chai';
import http from 'node:http';
import type { Socket } from 'node:net';
import { parsedNatively } from '../../gateway/http/first-read';
import { createCustomer } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Node parses a connection's requests in C++ until a 'data' or 'readable' listener is put on its
 * socket, and from then on through the socket's JavaScript stream, for the connection's whole life
 * (bench/README.md, "Connections on Node's native HTTP parsing"). Whatever the gateway does with a
 * request must leave its connection where it was.
 */
describe("the gateway's connections", () => {
  let app: TestApp;
  let customerKey: string;

  before(async () => {
    app = await startTestApp({ workers: false });
    customerKey = (await createCustomer(app)).apiKey;
  });
  after(() => app?.close());

  it("stay on Node's native parsing through hot routes, Koa's routes, refusals and HEAD", async () => {
    const sockets: Socket[] = [];
    const { server, port } = app.gateway.gateway;
    const onConnection = (socket: Socket) => sockets.push(socket);
    server.on('connection', onConnection);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const requests: Array<[string, string, Record<string, string>]> = [
        ['GET', '/v1/downloads/url?applicationId=nowhere&version=1.0.0', { authorization: `Bearer ${customerKey}` }],
        ['HEAD', '/v1/downloads/url?applicationId=nowhere&version=1.0.0', { authorization: `Bearer ${customerKey}` }],
        ['GET', '/v1/updates/nowhere/electron/latest.yml', { authorization: `Bearer ${customerKey}` }],
        ['GET', '/v1/management/applications', { authorization: `Bearer ${app.adminKey}` }],
        ['POST', '/v1/management/applications', { authorization: `Bearer ${app.adminKey}`, 'content-type': 'application/json' }],
        ['GET', '/v1/nowhere', {}],
        ['GET', '/healthz', {}],
      ];
      const statuses: number[] = [];
      for (const [method, path, headers] of requests) {
        statuses.push(await new Promise<number>((resolve, reject) => {
          const request = http.request({ host: '127.0.0.1', port, method, path, headers, agent }, (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode ?? 0));
          });
          request.on('error', reject);
          request.end(method === 'POST' ? '{"name":' : undefined);
        }));
      }
      expect(statuses).to.deep.equal([404, 404, 404, 200, 400, 404, 200]);
    } finally {
      agent.destroy();
      server.off('connection', onConnection);
    }
    expect(sockets, 'every request on one connection').to.have.length(1);
    expect(parsedNatively(sockets[0])).to.equal(true);
  });
});
