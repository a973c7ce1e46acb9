import { expect } from 'chai';
import { createApplication, createCustomer, uploadSmallFile } from '../support/factories';
import { pollUntil } from '../support/poll';
import { LogRecord, startTestApp, TestApp } from '../support/test-app';

/** One info line per request, which a person can read and which never holds a secret. */
describe('access log', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ workers: false, captureLogs: true });
  });
  after(async () => {
    await app?.close();
  });

  /** The access lines of the request answered with `requestId`, once logged. */
  const linesOf = (requestId: string): Promise<LogRecord[]> =>
    pollUntil(() => {
      const lines = app.logs.filter((line) => line.msg === 'request' && line.requestId === requestId);
      return lines.length > 0 ? lines : undefined;
    }, 5_000, `access line of ${requestId}`);

  const fetched = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, { redirect: 'manual', ...init });
    await response.arrayBuffer();
    return { status: response.status, requestId: response.headers.get('x-request-id') as string, location: response.headers.get('location') };
  };

  it('logs each request once at info with method, path, status and duration', async () => {
    const answered = await fetched(`${app.baseUrl}/healthz`);
    const lines = await linesOf(answered.requestId);
    expect(lines).to.have.length(1);
    const [line] = lines;
    expect(line).to.include({ level: 30, method: 'GET', path: '/healthz', status: 200 });
    expect(line.ms).to.be.a('number').at.least(0);

    const missing = await fetched(`${app.baseUrl}/v1/nowhere`, { method: 'DELETE' });
    expect((await linesOf(missing.requestId))[0]).to.include({ method: 'DELETE', path: '/v1/nowhere', status: 404 });
  });

  it('never logs a key, a share token or a URL signature', async () => {
    const { customerId, apiKey } = await createCustomer(app);
    const { applicationId } = await createApplication(app, { customerIds: [customerId] });
    await uploadSmallFile(app, { applicationId, version: '1.0.0' });

    const shared = await app.http.post('/v1/downloads/share', { applicationId, version: '1.0.0' }, { key: apiKey });
    const { token } = shared.body.data;
    const used = await fetched(`${app.baseUrl}/v1/downloads/share/${token}`);
    expect(used.status).to.equal(302);
    expect((await linesOf(used.requestId))[0]).to.include({ path: '/v1/downloads/share/[redacted]', status: 302 });
    const downloaded = await fetched(used.location as string);
    expect(downloaded.status).to.equal(200);
    const signature = new URL(used.location as string).search;
    expect((await linesOf(downloaded.requestId))[0].path).to.equal(new URL(used.location as string).pathname);

    const revoked = await fetched(`${app.baseUrl}/v1/downloads/share/${token}`, { method: 'DELETE', headers: { authorization: `Bearer ${apiKey}` } });
    expect((await linesOf(revoked.requestId))[0]).to.include({ method: 'DELETE', path: '/v1/downloads/share/[redacted]' });

    const everything = JSON.stringify(app.logs);
    for (const secret of [token, apiKey, app.adminKey, signature.slice(1)]) expect(everything).not.to.include(secret);
  });
});
