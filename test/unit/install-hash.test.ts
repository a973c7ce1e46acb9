import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { InstallHasher } from '../../shared/adoption/install-hash';
import { INSTALL_HASH_MEMO_ENTRIES } from '../../shared/policy';

const SECRET = Buffer.from('a server secret of some length, 32+ bytes long');

/** The construction as documented: HMAC-SHA-256 under the day's key, first 16 bytes, base64url. */
function documentedHash(at: Date, customerId: string, identity: string | null, userAgent: string | null): string {
  const dayKey = createHmac('sha256', SECRET).update(`bds install hash v1\0${at.toISOString().slice(0, 10)}`).digest();
  return createHmac('sha256', dayKey).update(`${customerId}\0${identity ?? ''}\0${userAgent ?? ''}`).digest().subarray(0, 16).toString('base64url');
}

describe('install hash', () => {
  it('is the HMAC-SHA-256 of (customer, identity, user agent) under the day key, for any lengths and characters', () => {
    const hasher = new InstallHasher(SECRET);
    const start = Date.UTC(2026, 2, 1);
    for (let i = 0; i < 3_000; i += 1) {
      // Across days, back and forth, with long and non-ASCII user agents (past the first buffer's size).
      const at = new Date(start + ((i * 7_919) % 40) * 3_600_000 * 5);
      const identity = i % 3 === 0 ? null : i % 3 === 1 ? `10.0.${i % 256}.${i % 250}` : `staging-${i}`;
      const userAgent = i % 5 === 0 ? null : `App/${i} ${'é☃𝄞'.repeat(i % 400)}`;
      expect(hasher.hash(at, `cust_${i}`, identity, userAgent), `check ${i}`).to.equal(documentedHash(at, `cust_${i}`, identity, userAgent));
    }
  });

  it('is the same for one install all day, and changes with the day and with each field', () => {
    const hasher = new InstallHasher(SECRET);
    const morning = new Date('2026-03-01T00:00:00.000Z');
    const evening = new Date('2026-03-01T23:59:59.999Z');
    const next = new Date('2026-03-02T00:00:00.000Z');
    const hash = hasher.hash(morning, 'cust_1', '10.0.0.1', 'App/1');
    expect(hash).to.match(/^[A-Za-z0-9_-]{22}$/);
    expect(hasher.hash(evening, 'cust_1', '10.0.0.1', 'App/1')).to.equal(hash);
    const others = [
      hasher.hash(next, 'cust_1', '10.0.0.1', 'App/1'),
      hasher.hash(morning, 'cust_2', '10.0.0.1', 'App/1'),
      hasher.hash(morning, 'cust_1', '10.0.0.2', 'App/1'),
      hasher.hash(morning, 'cust_1', '10.0.0.1', 'App/2'),
      // A field cannot run into the next.
      hasher.hash(morning, 'cust_1', '10.0.0.1App/1', null),
    ];
    expect(new Set([hash, ...others]).size).to.equal(others.length + 1);
  });

  it('answers a repeated check from its memory of the day, never from another day, and stays right once that memory fills', () => {
    const hasher = new InstallHasher(SECRET);
    const days = [new Date('2026-03-01T10:00:00.000Z'), new Date('2026-03-02T10:00:00.000Z')];
    // The same installs checking on two days, back and forth, more of them than the memory holds.
    const installs = INSTALL_HASH_MEMO_ENTRIES + 1_000;
    for (const at of [days[0], days[1], days[0]]) {
      for (let i = 0; i < installs; i += 1) {
        const identity = `10.1.${i >> 8}.${i & 255}`;
        const hash = hasher.hash(at, 'cust_1', identity, 'App/1');
        if (i % 997 === 0 || i >= installs - 3) expect(hash, `install ${i} on ${at.toISOString()}`).to.equal(documentedHash(at, 'cust_1', identity, 'App/1'));
        // Asked again at once: from memory, the same answer.
        if (i % 997 === 0) expect(hasher.hash(at, 'cust_1', identity, 'App/1')).to.equal(hash);
      }
    }
  });
});
