import { expect } from 'chai';
import { uploadReleaseMismatch } from '../../shared/releases/upload-release';

describe('what an upload may name of an existing version', () => {
  const existing = { channel: 'beta', status: 'draft' as const };

  it('accepts an upload naming nothing, or what the version already is', () => {
    for (const named of [{}, { channel: 'beta' }, { status: 'draft' as const }, { channel: 'beta', status: 'draft' as const }]) {
      expect(uploadReleaseMismatch(existing, named), JSON.stringify(named)).to.equal(null);
    }
  });

  it('refuses another channel or status, naming each difference', () => {
    expect(uploadReleaseMismatch(existing, { channel: 'stable' })).to.match(/^is in channel beta, not stable: /);
    expect(uploadReleaseMismatch(existing, { status: 'published' })).to.match(/^is in status draft, not published: /);
    expect(uploadReleaseMismatch(existing, { channel: 'stable', status: 'published' }))
      .to.match(/^is in channel beta, not stable, and in status draft, not published: an upload never changes/);
    expect(uploadReleaseMismatch({ channel: 'stable', status: 'yanked' }, { status: 'published' })).to.contain('status yanked, not published');
  });
});
