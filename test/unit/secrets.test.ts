import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { hashSecret, keyedDigest, keyFromSecret, openSecret, sameDigest, sealSecret } from '../../shared/secrets';

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

describe('sealed secrets', () => {
  const key = randomBytes(32);

  it('open to the secret only under the same key and context, and never show it', () => {
    const sealed = sealSecret(key, 'whsec_example', 'whk_1');
    expect(sealed).not.to.contain('whsec_example');
    expect(sealed).not.to.equal(sealSecret(key, 'whsec_example', 'whk_1'));
    expect(openSecret(key, sealed, 'whk_1')).to.equal('whsec_example');
    expect(() => openSecret(key, sealed, 'whk_2')).to.throw();
    expect(() => openSecret(randomBytes(32), sealed, 'whk_1')).to.throw();
    const [prefix, iv, tag, data] = sealed.split('.');
    const altered = Buffer.from(data, 'base64url');
    altered[0] ^= 1;
    expect(() => openSecret(key, [prefix, iv, tag, altered.toString('base64url')].join('.'), 'whk_1')).to.throw();
  });
});

describe('keys derived from a secret', () => {
  const key = keyFromSecret('cus_1.secret', 'idempotency-key-1');

  it('open what was sealed under the key derived from the same secret and context, and no other', () => {
    const sealed = sealSecret(key, '{"apiKey":"cus_1.abc"}', 'request');
    expect(sealed).to.not.include('cus_1');
    expect(openSecret(keyFromSecret('cus_1.secret', 'idempotency-key-1'), sealed, 'request')).to.equal('{"apiKey":"cus_1.abc"}');
    expect(() => openSecret(keyFromSecret('cus_1.secret', 'idempotency-key-2'), sealed, 'request')).to.throw();
    expect(() => openSecret(keyFromSecret('cus_2.secret', 'idempotency-key-1'), sealed, 'request')).to.throw();
  });

  it('give keyed digests that depend on the key', () => {
    expect(keyedDigest(key, 'body')).to.match(/^[0-9a-f]{64}$/);
    expect(keyedDigest(key, 'body')).to.equal(keyedDigest(key, 'body'));
    expect(keyedDigest(keyFromSecret('other', 'idempotency-key-1'), 'body')).to.not.equal(keyedDigest(key, 'body'));
  });
});
