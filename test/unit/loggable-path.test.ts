import { expect } from 'chai';
import { loggablePath } from '../../gateway/http/loggable-path';

describe('loggablePath', () => {
  it("replaces a share link's token, in any case the router accepts, and keeps what follows", () => {
    expect(loggablePath('/v1/downloads/share/tok3n_-x')).to.equal('/v1/downloads/share/[redacted]');
    expect(loggablePath('/V1/Downloads/SHARE/tok3n/extra')).to.equal('/V1/Downloads/SHARE/[redacted]/extra');
  });

  it('replaces an access token in front of a path, and a share token after it', () => {
    expect(loggablePath('/t/bdt_secret-token/v1/downloads/url')).to.equal('/t/[redacted]/v1/downloads/url');
    expect(loggablePath('/T/bdt_secret/v1/downloads/share/abc')).to.equal('/T/[redacted]/v1/downloads/share/[redacted]');
    expect(loggablePath('/t/bdt_secret')).to.equal('/t/[redacted]');
  });

  it('replaces a token however the path spells the way to it: empty and dot segments, escapes, case', () => {
    expect(loggablePath('//t/bdt_secret/v1/downloads/url')).to.equal('//t/[redacted]/v1/downloads/url');
    expect(loggablePath('/t//bdt_secret/v1/downloads/url')).to.equal('/t//[redacted]/v1/downloads/url');
    expect(loggablePath('/./t/bdt_secret/v1/updates/a/electron/latest.yml')).to.equal('/./t/[redacted]/v1/updates/a/electron/latest.yml');
    expect(loggablePath('/x/../t/bdt_secret/v1')).to.equal('/x/../t/[redacted]/v1');
    expect(loggablePath('/%74/bdt_secret/v1')).to.equal('/%74/[redacted]/v1');
    expect(loggablePath('/t/./bdt_secret')).to.equal('/t/./[redacted]');
    expect(loggablePath('/t/%62dt_secret/v1')).to.equal('/t/[redacted]/v1');
    expect(loggablePath('//v1//downloads/./share//tok3n')).to.equal('//v1//downloads/./share//[redacted]');
    expect(loggablePath('/t/bdt_a//t/bdt_b/v1/downloads/share/tok3n')).to.equal('/t/[redacted]//t/[redacted]/v1/downloads/share/[redacted]');
  });

  it('leaves every other path as it is', () => {
    for (const path of ['/v1/downloads/share', '/v1/downloads/share/', '/v1/downloads/shares/abc', '/v1/downloads/url', '/v1/objects/a/b', '/v1//x', '/v1/a%20b', '/v1/./t', '/v1/t/x']) {
      expect(loggablePath(path)).to.equal(path);
    }
  });
});
