import { expect } from 'chai';
import { KeyUseRecorder } from '../../gateway/auth/key-use-recorder';
import { createLogger } from '../../shared/logger';

describe('key use recorder', () => {
  it("writes a key's last use once per key however often it is used, never once per request", () => {
    const writes: Array<[string, Date]> = [];
    const recorder = new KeyUseRecorder(async (keyId, at) => {
      writes.push([keyId, at]);
    }, createLogger('silent', 'test'));
    for (let i = 0; i < 1_000; i += 1) recorder.record('adk_1');
    for (let i = 0; i < 10; i += 1) recorder.record('adk_2');
    expect(writes.map(([keyId]) => keyId)).to.deep.equal(['adk_1', 'adk_2']);
    expect(Date.now() - writes[0][1].getTime()).to.be.within(0, 60_000);
  });

  it('lets a request go on when the write fails', async () => {
    const recorder = new KeyUseRecorder(() => Promise.reject(new Error('store down')), createLogger('silent', 'test'));
    expect(() => recorder.record('adk_1')).to.not.throw();
    await new Promise((resolve) => setImmediate(resolve));
  });
});
