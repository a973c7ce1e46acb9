import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  createPrehash,
  MinisignFormatError,
  parsePublicKey,
  parseSignature,
  verificationProblem,
} from '../../shared/signing/minisign';
import { generateTauriKey, tauriSign, TauriSigningKey } from '../support/tauri-signer';

const prehashOf = (bytes: Buffer) => createPrehash().update(bytes).digest();

describe('minisign keys and signatures, as tauri signer makes them', function () {
  this.timeout(30_000);
  let directory: string;
  let key: TauriSigningKey;
  let otherKey: TauriSigningKey;
  let bytes: Buffer;
  let signatureFile: string;

  before(async () => {
    directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'bds-minisign-'));
    [key, otherKey] = await Promise.all([generateTauriKey(directory, 'one'), generateTauriKey(directory, 'two')]);
    bytes = randomBytes(100_000);
    const file = path.join(directory, 'app.tar.gz');
    await fsp.writeFile(file, bytes);
    signatureFile = await tauriSign(key, file);
  });
  after(async () => {
    await fsp.rm(directory, { recursive: true, force: true });
  });

  it('verifies a file signed by `tauri signer sign` under the key `tauri signer generate` printed', () => {
    const problem = verificationProblem(parsePublicKey(key.publicKey), parseSignature(signatureFile), prehashOf(bytes));
    expect(problem).to.equal(null);
  });

  it('reads the key as printed, as the .pub text and as its key line alone, to the same key', () => {
    const printed = parsePublicKey(key.publicKey);
    const text = Buffer.from(key.publicKey, 'base64').toString('utf8');
    expect(printed.keyId).to.match(/^[0-9A-F]{16}$/);
    expect(text).to.contain(printed.keyId);
    expect(parsePublicKey(text).tauriForm).to.equal(printed.tauriForm);
    expect(parsePublicKey(text.split('\n')[1]).tauriForm).to.equal(printed.tauriForm);
    expect(printed.tauriForm).to.equal(key.publicKey);
  });

  it('reads the signature as written and as its decoded text, keeping the form Tauri clients take', () => {
    const written = parseSignature(signatureFile);
    expect(written.tauriForm).to.equal(signatureFile.trim());
    expect(parseSignature(Buffer.from(signatureFile, 'base64').toString('utf8')).tauriForm).to.equal(written.tauriForm);
  });

  it('refuses a file changed by one byte', () => {
    const tampered = Buffer.from(bytes);
    tampered[500] ^= 1;
    expect(verificationProblem(parsePublicKey(key.publicKey), parseSignature(signatureFile), prehashOf(tampered)))
      .to.match(/does not match the file's bytes/);
  });

  it('refuses a signature made with another key, naming both key ids', () => {
    const other = parsePublicKey(otherKey.publicKey);
    const problem = verificationProblem(other, parseSignature(signatureFile), prehashOf(bytes));
    expect(problem).to.contain(other.keyId).and.to.contain(parsePublicKey(key.publicKey).keyId);
  });

  it('refuses a signature whose trusted comment was altered', () => {
    const lines = Buffer.from(signatureFile, 'base64').toString('utf8').split('\n');
    lines[2] = lines[2].replace('file:', 'file:x');
    const problem = verificationProblem(parsePublicKey(key.publicKey), parseSignature(lines.join('\n')), prehashOf(bytes));
    expect(problem).to.match(/trusted comment/);
  });

  it('refuses a legacy (not prehashed) signature', () => {
    const lines = Buffer.from(signatureFile, 'base64').toString('utf8').split('\n');
    const raw = Buffer.from(lines[1], 'base64');
    raw.write('Ed', 0, 'latin1');
    lines[1] = raw.toString('base64');
    expect(verificationProblem(parsePublicKey(key.publicKey), parseSignature(lines.join('\n')), prehashOf(bytes))).to.match(/legacy/);
  });

  it('refuses what is not a key or a signature', () => {
    for (const input of ['', 'hello', 'RWQ=', key.publicKey.slice(0, -4), Buffer.from('untrusted comment: x\nRWQ\n').toString('base64'), 'a'.repeat(10_000)]) {
      expect(() => parsePublicKey(input), input).to.throw(MinisignFormatError);
    }
    for (const input of ['', 'hello', key.publicKey, signatureFile.slice(0, 40)]) {
      expect(() => parseSignature(input), input).to.throw(MinisignFormatError);
    }
  });
});
