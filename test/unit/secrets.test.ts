import { expect } from 'chai';
import { hashSecret, sameDigest } from '../../shared/secrets';

describe('secret digests', () => {
  const digest = hashSecret('adm_example');

  it('are SHA-256 in lower-case hex', () => {
    expect(digest).to.match(/^[0-9a-f]{64}$/);
    expect(hashSecret('adm_example')).to.equal(digest);
    expect(hashSecret('adm_examplf')).not.to.equal(digest);
  });

  it('compare equal only when every character matches', () => {
    expect(sameDigest(digest, hashSecret('adm_example'))).to.equal(true);
    const lastChanged = digest.slice(0, -1) + (digest.endsWith('0') ? '1' : '0');
    const firstChanged = (digest.startsWith('0') ? '1' : '0') + digest.slice(1);
    expect(sameDigest(digest, lastChanged)).to.equal(false);
    expect(sameDigest(digest, firstChanged)).to.equal(false);
    expect(sameDigest(digest, digest.slice(0, -1))).to.equal(false);
    expect(sameDigest('', '')).to.equal(true);
  });
});
