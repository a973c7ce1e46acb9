import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import type { OfferedRelease } from '../../shared/contract/releases';
import { strandedInstalls, trustedKey } from '../../shared/releases/signing-key-paths';
import { parsePublicKey } from '../../shared/signing/minisign';
import type { Application, Version } from '../../shared/store/models';
import { SigningKeyStep } from '../../gateway/releases/signing-key-step';
import { application, at, version } from '../support/records';

/** A minisign public key as `tauri signer generate` prints its line: Ed, an 8-byte id, a fresh Ed25519 key. */
function minisignKey(): { key: string; id: string } {
  const raw = Buffer.from(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x as string, 'base64url');
  const key = Buffer.concat([Buffer.from('Ed'), Buffer.from(Array.from({ length: 8 }, () => Math.floor(Math.random() * 256))), raw]).toString('base64');
  return { key, id: parsePublicKey(key).keyId };
}

const OLD = minisignKey();
const NEW = minisignKey();

/** The application after its minisign key changed from OLD to NEW at minute 10. */
const rotated: Application = application('app_1', { updateSigningKey: NEW.key, retiredSigningKeys: [{ kind: 'minisign', key: OLD.key, keyId: OLD.id, retiredAt: at(10) }] });

const signed = (name: string, keyId: string | null, publishedAt: number | null, overrides: Partial<Version> = {}): Version =>
  version('app_1', name, { publishedAt: publishedAt === null ? null : at(publishedAt), signedUnder: { minisign: keyId, sparkle: null }, ...overrides });

describe('signing-key changes', () => {
  describe('trustedKey', () => {
    it('is the key a version was signed under, or null when none verified', () => {
      expect(trustedKey(rotated, signed('1.0.0', OLD.id, 1), 'minisign')).to.equal(OLD.id);
      expect(trustedKey(rotated, signed('2.0.0', NEW.id, 20), 'minisign')).to.equal(NEW.id);
      expect(trustedKey(rotated, signed('0.9.0', null, 1), 'minisign')).to.equal(null);
    });

    it('is the replacing key for a bridge release: signed under a key after its retirement', () => {
      expect(trustedKey(rotated, signed('1.1.0', OLD.id, 11), 'minisign')).to.equal(NEW.id);
      expect(trustedKey(rotated, signed('1.1.0', OLD.id, 10), 'minisign')).to.equal(NEW.id);
      const third = minisignKey();
      const twice: Application = { ...rotated, updateSigningKey: third.key, retiredSigningKeys: [...rotated.retiredSigningKeys, { kind: 'minisign', key: NEW.key, keyId: NEW.id, retiredAt: at(30) }] };
      expect(trustedKey(twice, signed('1.1.0', OLD.id, 11), 'minisign')).to.equal(NEW.id);
      expect(trustedKey(twice, signed('2.1.0', NEW.id, 31), 'minisign')).to.equal(third.id);
    });
  });

  describe('strandedInstalls', () => {
    it('names the versions trusting a retired key with no newer release signed under it', () => {
      const versions = [signed('2.0.0', NEW.id, 20), signed('1.0.1', OLD.id, 2), signed('1.0.0', OLD.id, 1)];
      expect(strandedInstalls(rotated, versions)).to.deep.equal([{ kind: 'minisign', keyId: OLD.id, versions: ['1.0.1'] }]);
    });

    it('is empty once a bridge release signed under the old key is published, and again without a key change', () => {
      const bridged = [signed('2.0.0', NEW.id, 20), signed('1.1.0', OLD.id, 12), signed('1.0.0', OLD.id, 1)];
      expect(strandedInstalls(rotated, bridged)).to.deep.equal([]);
      expect(strandedInstalls(application('app_1', { updateSigningKey: OLD.key }), [signed('1.0.0', OLD.id, 1)])).to.deep.equal([]);
    });

    it('counts only published bridges, and leaves out drafts customers never had', () => {
      const drafted = [signed('1.1.0', OLD.id, null, { status: 'draft' }), signed('1.0.0', OLD.id, 1)];
      expect(strandedInstalls(rotated, drafted)).to.deep.equal([{ kind: 'minisign', keyId: OLD.id, versions: ['1.0.0'] }]);
      const yankedBridge = [signed('1.1.0', OLD.id, 12, { status: 'yanked' }), signed('1.0.0', OLD.id, 1)];
      expect(strandedInstalls(rotated, yankedBridge)[0].versions).to.deep.equal(['1.0.0']);
    });
  });

  describe('the catalogue step', () => {
    const release = (v: Version): OfferedRelease => Object.freeze({ version: v, files: [] });
    const offered = Object.freeze([
      release(signed('3.0.0', NEW.id, 40)),
      release(signed('2.0.0', NEW.id, 20)),
      release(signed('1.1.0', OLD.id, 12)),
      release(signed('1.0.0', OLD.id, 1)),
    ]);
    const names = (list: readonly OfferedRelease[]) => list.map((r) => r.version.version);

    it('offers an old-key install only releases signed under its key, newest first', () => {
      const step = new SigningKeyStep();
      expect(names(step.offered(rotated, signed('1.0.0', OLD.id, 1), 'minisign', offered))).to.deep.equal(['1.1.0', '1.0.0']);
    });

    it('offers the bridge and new-key installs the releases signed under the new key, unknown versions and unsigned ones every release', () => {
      const step = new SigningKeyStep();
      expect(names(step.offered(rotated, signed('1.1.0', OLD.id, 12), 'minisign', offered))).to.deep.equal(['3.0.0', '2.0.0']);
      expect(names(step.offered(rotated, signed('2.0.0', NEW.id, 20), 'minisign', offered))).to.deep.equal(['3.0.0', '2.0.0']);
      // Releases with no key recorded are kept for current-key installs; a list with nothing to leave out is the list itself.
      const unrecorded = Object.freeze([release(signed('3.0.0', null, 40)), release(signed('2.0.0', NEW.id, 20))]);
      expect(step.offered(rotated, signed('2.0.0', NEW.id, 20), 'minisign', unrecorded)).to.equal(unrecorded);
      expect(step.offered(rotated, undefined, 'minisign', offered)).to.equal(offered);
      expect(step.offered(rotated, signed('0.9.0', null, 1), 'minisign', offered)).to.equal(offered);
      // Sparkle's key never changed: its installs are not cut by the minisign history.
      expect(step.offered(rotated, signed('1.0.0', OLD.id, 1), 'sparkle', offered)).to.equal(offered);
    });

    it('offers nothing when no release is signed under the install\'s key, and keeps one cut per list and key', () => {
      const step = new SigningKeyStep();
      const newOnly = Object.freeze([release(signed('3.0.0', NEW.id, 40))]);
      expect(step.offered(rotated, signed('1.0.0', OLD.id, 1), 'minisign', newOnly)).to.deep.equal([]);
      const first = step.offered(rotated, signed('1.0.0', OLD.id, 1), 'minisign', offered);
      expect(step.offered(rotated, signed('1.0.1', OLD.id, 2), 'minisign', offered)).to.equal(first);
    });
  });
});
