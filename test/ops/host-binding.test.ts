import { expect } from 'chai';
import type { AddressInfo } from 'node:net';
import { startTestApp, TestApp } from '../support/test-app';

/** HOST: the embedded default answers this machine only; a container opens it on purpose. */
describe('HOST', function () {
  this.timeout(60_000);
  const apps: TestApp[] = [];
  after(async () => {
    for (const app of apps) await app.close();
  });

  const boundAddress = async (env: Record<string, string>) => {
    const app = await startTestApp({ workers: false, sqliteOnly: true, env });
    apps.push(app);
    return (app.gateway.gateway.server.address() as AddressInfo).address;
  };

  it('binds the loopback address when unset', async () => {
    expect(await boundAddress({})).to.equal('127.0.0.1');
  });

  it('binds every interface with HOST=0.0.0.0', async () => {
    expect(await boundAddress({ HOST: '0.0.0.0' })).to.equal('0.0.0.0');
  });
});
