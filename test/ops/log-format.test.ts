import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findFreePort } from '../../shared/net';
import { logFormatFor } from '../../shared/logger';
import { testRedisUrl } from '../support/hooks';
import { NodeProcess } from '../support/node-process';

/** LOG_FORMAT: readable lines for a person at a terminal, JSON lines for machines. */
describe('log format', function () {
  this.timeout(60_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-test-logs-'));
  const started: NodeProcess[] = [];
  after(async () => {
    for (const child of started) await child.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** bin/web.js with `env`, its output once it listens. */
  const webOutput = async (env: Record<string, string>) => {
    const web = new NodeProcess('bin/web.js', {
      DATA_DIR: dataDir, REDIS_URL: testRedisUrl(), REDIS_PREFIX: `l${randomBytes(6).toString('hex')}`, LOG_LEVEL: 'info',
      ADMIN_API_KEYS: `adm_${randomBytes(24).toString('base64url')}`, PORT: String(await findFreePort()), ...env,
    });
    started.push(web);
    await web.waitForOutput(/gateway listening/, 30_000);
    return web.stdout;
  };

  it('is pretty on a terminal and JSON otherwise, unless LOG_FORMAT says', () => {
    expect(logFormatFor(undefined, true)).to.equal('pretty');
    expect(logFormatFor(undefined, false)).to.equal('json');
    expect(logFormatFor('json', true)).to.equal('json');
    expect(logFormatFor('pretty', false)).to.equal('pretty');
  });

  it('writes readable lines with LOG_FORMAT=pretty', async () => {
    const output = await webOutput({ LOG_FORMAT: 'pretty' });
    const line = output.split('\n').find((text) => text.includes('gateway listening')) as string;
    expect(line).to.match(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: gateway listening /);
    expect(output).not.to.match(/^\{"level"/m);
  });

  it('writes one JSON object per line when stdout is not a terminal', async () => {
    const output = await webOutput({});
    const line = output.split('\n').find((text) => text.includes('gateway listening')) as string;
    expect(JSON.parse(line)).to.include({ level: 30, msg: 'gateway listening' });
  });
});
