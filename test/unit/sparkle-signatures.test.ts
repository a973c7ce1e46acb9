import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { digestsOfStream, hashInProcess, Hashing } from '../../shared/hashing';
import { HashingThreads } from '../../shared/hashing-threads/hashing-threads';
import {
  challengeSeed, parseSparklePublicKey, SparkleFormatError, sparkleSignatureOf, verifiesWithChallenge,
} from '../../shared/signing/sparkle';
import { generateSparkleKey } from '../support/sparkle-signer';

/** SHA-512(R || A || M) in one piece: what the streamed challenge must equal. */
const challengeOf = (signature: Buffer, publicKey: Buffer, message: Buffer) =>
  createHash('sha512').update(Buffer.concat([signature.subarray(0, 32), publicKey, message])).digest();

describe('Sparkle EdDSA signatures', () => {
  const key = generateSparkleKey();
  const publicKey = parseSparklePublicKey(key.publicKey);

  it('verify from the challenge what node:crypto signs over the raw bytes, and nothing else', () => {
    for (const size of [0, 1, 1000, 70_000]) {
      const message = randomBytes(size);
      const signature = Buffer.from(key.sign(message), 'base64');
      expect(verifiesWithChallenge(publicKey, signature, challengeOf(signature, publicKey, message)), `${size} bytes`).to.equal(true);
      if (size === 0) continue;
      const tampered = Buffer.from(message);
      tampered[size - 1] ^= 0x80;
      expect(verifiesWithChallenge(publicKey, signature, challengeOf(signature, publicKey, tampered))).to.equal(false);
      const other = parseSparklePublicKey(generateSparkleKey().publicKey);
      expect(verifiesWithChallenge(other, signature, challengeOf(signature, other, message))).to.equal(false);
      const forged = Buffer.from(signature);
      forged[5] ^= 0x01;
      expect(verifiesWithChallenge(publicKey, forged, challengeOf(forged, publicKey, message))).to.equal(false);
    }
  });

  it('refuse an S at or above the group order (a malleated signature)', () => {
    const message = randomBytes(100);
    const signature = Buffer.from(key.sign(message), 'base64');
    // S + L: the same point equation, another encoding; RFC 8032 refuses it.
    const order = 2n ** 252n + 27742317777372353535851937790883648493n;
    let s = 0n;
    for (let i = 63; i >= 32; i -= 1) s = (s << 8n) | BigInt(signature[i]);
    const malleated = Buffer.from(signature);
    let t = s + order;
    for (let i = 32; i < 64; i += 1) {
      malleated[i] = Number(t & 0xffn);
      t >>= 8n;
    }
    expect(verifiesWithChallenge(publicKey, malleated, challengeOf(malleated, publicKey, message))).to.equal(false);
  });

  const threads = new HashingThreads({ threads: 2 });
  after(() => threads.close());
  const hashings: [string, Hashing][] = [['in process', hashInProcess], ['on hashing threads', threads]];
  for (const [where, hashing] of hashings) {
    it(`stream the challenge ${where}, seeded with R || A`, async () => {
      const message = randomBytes(3 * 1024 * 1024 + 17);
      const signature = Buffer.from(key.sign(message), 'base64');
      const digester = hashing.digesterOf([{ name: 'challenge', algorithm: 'sha512', encoding: 'base64', seed: challengeSeed(signature, publicKey) }]);
      const chunks = Array.from({ length: Math.ceil(message.length / 65_536) }, (_, i) => message.subarray(i * 65_536, (i + 1) * 65_536));
      const { challenge } = await digestsOfStream(Readable.from(chunks), digester);
      expect(Buffer.from(challenge, 'base64')).to.deep.equal(challengeOf(signature, publicKey, message));
      expect(verifiesWithChallenge(publicKey, signature, Buffer.from(challenge, 'base64'))).to.equal(true);
    });
  }

  it('read keys and signatures as generate_keys and sign_update print them, and refuse other text', () => {
    expect(parseSparklePublicKey(` ${key.publicKey}\n`)).to.deep.equal(publicKey);
    for (const text of ['', 'abc', Buffer.alloc(31).toString('base64'), `${key.publicKey.slice(0, -1)}!`]) {
      expect(() => parseSparklePublicKey(text), text).to.throw(SparkleFormatError);
    }
    const signature = key.sign(Buffer.from('x'));
    expect(sparkleSignatureOf(`${signature}\n`)?.toString('base64')).to.equal(signature);
    expect(sparkleSignatureOf(`sparkle:edSignature="${signature}" length="1"`)?.toString('base64')).to.equal(signature);
    for (const text of ['', signature.slice(4), `${signature} extra`, 'untrusted comment: minisign']) expect(sparkleSignatureOf(text), text).to.equal(undefined);
  });
});
