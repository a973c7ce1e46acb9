import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import type { SignedGrant } from '../../shared/storage/signed-object-access';
import { UrlSigner } from '../../shared/storage/local/url-signer';

const NOW = new Date('2030-01-01T00:00:00Z');
const NOW_SECONDS = NOW.getTime() / 1000;
const KEY = 'apps/app 1/1.0.0+build/ünï.bin';

const getGrant: SignedGrant = {
  method: 'GET',
  key: KEY,
  expires: NOW_SECONDS + 300,
  disposition: 'attachment; filename="a.bin"',
  contentType: 'application/octet-stream',
  contentLength: undefined,
  uploadId: undefined,
  partNumber: undefined,
};

const putGrant: SignedGrant = {
  method: 'PUT',
  key: KEY,
  expires: NOW_SECONDS + 300,
  disposition: undefined,
  contentType: undefined,
  contentLength: 1024,
  uploadId: undefined,
  partNumber: undefined,
};

const partGrant: SignedGrant = { ...putGrant, contentLength: 8 * 1024 * 1024, uploadId: 'Zm9vYmFy-_', partNumber: 7 };

describe('UrlSigner', () => {
  const signer = new UrlSigner(randomBytes(32));
  const signed = (grant: SignedGrant) => new URLSearchParams(signer.sign(grant));
  const tampered = (grant: SignedGrant, name: string, value: string) => {
    const query = signed(grant);
    query.set(name, value);
    return query;
  };

  it('verifies the grant it signed', () => {
    expect(signer.verify('GET', KEY, signed(getGrant), NOW)).to.deep.equal({ verdict: 'valid', grant: getGrant });
    expect(signer.verify('PUT', KEY, signed(putGrant), NOW)).to.deep.equal({ verdict: 'valid', grant: putGrant });
  });

  it('verifies a part grant, and refuses it with its upload or part number changed or removed', () => {
    expect(signer.verify('PUT', KEY, signed(partGrant), NOW)).to.deep.equal({ verdict: 'valid', grant: partGrant });
    expect(signer.verify('PUT', KEY, tampered(partGrant, 'X-Part-Number', '8'), NOW).verdict).to.equal('invalid');
    expect(signer.verify('PUT', KEY, tampered(partGrant, 'X-Upload-Id', 'other'), NOW).verdict).to.equal('invalid');
    for (const name of ['X-Part-Number', 'X-Upload-Id']) {
      const query = signed(partGrant);
      query.delete(name);
      expect(signer.verify('PUT', KEY, query, NOW).verdict, name).to.equal('invalid');
    }
    // A whole-object PUT URL cannot be turned into a part URL, nor a part URL into a whole-object one.
    const asPart = signed(putGrant);
    asPart.set('X-Upload-Id', 'Zm9vYmFy-_');
    asPart.set('X-Part-Number', '7');
    expect(signer.verify('PUT', KEY, asPart, NOW).verdict).to.equal('invalid');
  });

  it('accepts HEAD for a GET grant', () => {
    expect(signer.verify('HEAD', KEY, signed(getGrant), NOW).verdict).to.equal('valid');
  });

  it('accepts a HEAD grant for HEAD only: neither a GET nor a grant rewritten to GET reads the bytes', () => {
    const headGrant: SignedGrant = { ...getGrant, method: 'HEAD' };
    expect(signer.verify('HEAD', KEY, signed(headGrant), NOW).verdict).to.equal('valid');
    expect(signer.verify('GET', KEY, signed(headGrant), NOW).verdict).to.equal('invalid');
    expect(signer.verify('GET', KEY, tampered(headGrant, 'X-Method', 'GET'), NOW).verdict).to.equal('invalid');
  });

  it('refuses another method than the granted one', () => {
    expect(signer.verify('PUT', KEY, signed(getGrant), NOW).verdict).to.equal('invalid');
    expect(signer.verify('GET', KEY, signed(putGrant), NOW).verdict).to.equal('invalid');
    expect(signer.verify('PUT', KEY, tampered(getGrant, 'X-Method', 'PUT'), NOW).verdict).to.equal('invalid');
  });

  it('refuses the signature for another key', () => {
    expect(signer.verify('GET', `${KEY}x`, signed(getGrant), NOW).verdict).to.equal('invalid');
  });

  it('refuses a tampered expiry, disposition, content type or length', () => {
    expect(signer.verify('GET', KEY, tampered(getGrant, 'X-Expires', String(getGrant.expires + 3600)), NOW).verdict).to.equal('invalid');
    expect(signer.verify('GET', KEY, tampered(getGrant, 'X-Disposition', 'inline'), NOW).verdict).to.equal('invalid');
    expect(signer.verify('GET', KEY, tampered(getGrant, 'X-Content-Type', 'text/html'), NOW).verdict).to.equal('invalid');
    expect(signer.verify('PUT', KEY, tampered(putGrant, 'X-Length', '999999'), NOW).verdict).to.equal('invalid');
  });

  it('refuses a grant with a signed field removed', () => {
    const query = signed(getGrant);
    query.delete('X-Disposition');
    expect(signer.verify('GET', KEY, query, NOW).verdict).to.equal('invalid');
  });

  it('refuses a tampered signature or one made with another secret', () => {
    const signature = signed(getGrant).get('X-Signature') ?? '';
    const flipped = `${signature[0] === '0' ? '1' : '0'}${signature.slice(1)}`;
    expect(signer.verify('GET', KEY, tampered(getGrant, 'X-Signature', flipped), NOW).verdict).to.equal('invalid');
    const stranger = new URLSearchParams(new UrlSigner(randomBytes(32)).sign(getGrant));
    expect(signer.verify('GET', KEY, stranger, NOW).verdict).to.equal('invalid');
  });

  it('reports a genuine grant past its expiry as expired', () => {
    const grant = { ...getGrant, expires: NOW_SECONDS - 1 };
    expect(signer.verify('GET', KEY, signed(grant), NOW)).to.deep.equal({ verdict: 'expired', grant });
    expect(signer.verify('GET', KEY, signed({ ...getGrant, expires: NOW_SECONDS }), NOW).verdict).to.equal('expired');
  });

  it('refuses malformed parameters', () => {
    const malformed: Array<[string, string]> = [
      ['X-Expires', 'soon'],
      ['X-Expires', '1e99'],
      ['X-Signature', 'not-hex'],
      ['X-Signature', 'ab'],
      ['X-Method', 'DELETE'],
    ];
    for (const [name, value] of malformed) {
      expect(signer.verify('GET', KEY, tampered(getGrant, name, value), NOW).verdict, `${name}=${value}`).to.equal('invalid');
    }
    expect(signer.verify('GET', KEY, new URLSearchParams(), NOW).verdict).to.equal('invalid');
    expect(signer.verify('GET', KEY, new URLSearchParams('X-Method=GET&X-Expires=&X-Signature='), NOW).verdict).to.equal('invalid');
  });
});
