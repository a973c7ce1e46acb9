import Database from 'better-sqlite3';
import { expect } from 'chai';
import fc from 'fast-check';
import { compare as semverCompare, valid as semverValid } from 'semver';
import {
  compareVersionPrecedence,
  compareVersions,
  newestFirst,
  OrderedVersion,
  versionKind,
  VersionKind,
  versionOrderKey,
} from '../../shared/releases/version-order';

const T0 = Date.UTC(2025, 0, 1);
const at = (seconds: number) => new Date(T0 + seconds * 1000);
const v = (version: string, createdSecond = 0): OrderedVersion => ({ version, createdAt: at(createdSecond) });
const shown = (item: OrderedVersion) => `${item.version}@${(item.createdAt.getTime() - T0) / 1000}s`;

/** [lower, higher]: each pair is checked both ways round. */
const ORDERED_PAIRS: Array<[OrderedVersion, OrderedVersion]> = [
  // SemVer 2.0 §11's own example chain.
  [v('1.0.0-alpha'), v('1.0.0-alpha.1')],
  [v('1.0.0-alpha.1'), v('1.0.0-alpha.beta')],
  [v('1.0.0-alpha.beta'), v('1.0.0-beta')],
  [v('1.0.0-beta'), v('1.0.0-beta.2')],
  [v('1.0.0-beta.2'), v('1.0.0-beta.11')],
  [v('1.0.0-beta.11'), v('1.0.0-rc.1')],
  [v('1.0.0-rc.1'), v('1.0.0')],
  [v('1.0.0'), v('2.0.0')],
  [v('2.0.0'), v('2.1.0')],
  [v('2.1.0'), v('2.1.1')],
  // Numbers compare as numbers, identifiers by kind then ASCII.
  [v('1.9.0'), v('1.10.0')],
  [v('1.0.0-2'), v('1.0.0-10')],
  [v('1.0.0-999'), v('1.0.0-a')],
  [v('1.0.0-alpha.9'), v('1.0.0-alpha.10')],
  [v('1.0.0-Beta'), v('1.0.0-alpha')],
  [v('1.0.0-alpha'), v('1.0.0-alpha0')],
  [v('1.0.0-a.b'), v('1.0.0-a-b')],
  [v('1.0.0-9007199254740992'), v('1.0.0-9007199254740993')],
  [v('0.9.9'), v('1.0.0-alpha')],
  [v('1.0.0-0'), v('1.0.0-alpha')],
  // A leading v or V, and build metadata, change nothing but the tie-break.
  [v('v1.2.3'), v('1.2.4')],
  [v('1.9.9'), v('V2.0.0')],
  [v('1.2.3+zzz'), v('1.2.4')],
  [v('1.0.0-rc.1+build.9'), v('1.0.0')],
  [v('v1.2.3', 1), v('1.2.3', 2)],
  [v('1.2.3', 1), v('v1.2.3', 2)],
  [v('1.2.3'), v('v1.2.3')],
  [v('1.2.3+build.2', 1), v('1.2.3+build.1', 2)],
  [v('1.2.3+a'), v('1.2.3+b')],
  // Numeric dotted versions: by number, among SemVer as if padded with zeros.
  [v('2024.01.15'), v('2024.01.16')],
  [v('2024.1.9'), v('2024.01.10')],
  [v('2024.12.31'), v('2025.1.1')],
  [v('2024.01.15', 1), v('2024.1.15', 2)],
  [v('1.2'), v('1.2.1')],
  [v('1.2.0', 1), v('1.2', 2)],
  [v('1.2', 1), v('1.2.0', 2)],
  [v('1.2.3'), v('1.2.3.1')],
  [v('1.2.3.4'), v('1.2.4-alpha')],
  [v('1.2.3-rc.1'), v('1.2.3.0')],
  [v('1.2.3.4'), v('1.2.3.10')],
  [v('9.9.9'), v('10')],
  [v('2.0.0'), v('812')],
  [v('1.2.3', 1), v('01.2.3', 2)],
  [v('v1.2', 1), v('1.2.0', 2)],
  [v('99999999999999999999.0.0'), v('100000000000000000000.0.0')],
  // Numbers past 2^53 with a prerelease or build metadata are SemVer all the same.
  [v('1.1.0'), v('99999999999999999999999.0.0-rc.1')],
  [v('99999999999999999999999.0.0-rc.1'), v('99999999999999999999999.0.0')],
  [v('99999999999999999999998.0.0+b.1'), v('99999999999999999999999.0.0-0')],
  [v('1.0.0-rc.99999999999999999999'), v('1.0.0-rc.100000000000000000000')],
  [v('1.99999999999999999999.0-beta'), v('2.0.0')],
  // Free-form strings: below every version, among themselves by creation time, then the string.
  [v('build-812'), v('0.0.1')],
  [v('nightly', 5), v('1', 0)],
  [v('1.2-beta'), v('0.0.0')],
  [v('1.2.3.4.5'), v('0.0.1')],
  [v('v'), v('v0')],
  [v('build-813', 1), v('build-812', 2)],
  [v('beta'), v('nightly')],
  [v('1.0~rc1'), v('1.0')],
];

describe('version order', () => {
  describe('a table of pairs, lower first', () => {
    for (const [lower, higher] of ORDERED_PAIRS) {
      it(`${shown(lower)} < ${shown(higher)}`, () => {
        expect(compareVersions(lower, higher)).to.be.below(0);
        expect(compareVersions(higher, lower)).to.be.above(0);
      });
    }
    it('has at least 30 pairs', () => expect(ORDERED_PAIRS.length).to.be.at.least(30));
  });

  describe('kinds', () => {
    const kinds: Array<[string, VersionKind]> = [
      ['1.2.3', 'semver'], ['v1.2.3-beta.1+build.5', 'semver'], ['V1.0.0', 'semver'], ['0.0.0', 'semver'],
      ['1', 'numeric'], ['1.2', 'numeric'], ['2024.01.15', 'numeric'], ['1.2.3.4', 'numeric'], ['01.2.3', 'numeric'],
      ['v2024.01.15', 'numeric'], ['99999999999999999999.0.0', 'semver'], ['99999999999999999999999.0.0-rc.1', 'semver'],
      ['1.2.99999999999999999999+build', 'semver'],
      ['build-812', 'free-form'], ['nightly', 'free-form'], ['1.2-beta', 'free-form'], ['1.2.3.4.5', 'free-form'],
      ['vv1.2.3', 'free-form'], ['v', 'free-form'], ['=1.2.3', 'free-form'], ['1.0~rc1', 'free-form'],
      ['1.2.3.', 'free-form'], ['.1.2', 'free-form'], ['1..2', 'free-form'], ['1.0.0-01', 'free-form'],
      [' 1.2.3', 'free-form'], ['1.2.3 ', 'free-form'], [`1.2.${'9'.repeat(260)}`, 'free-form'],
    ];
    for (const [version, kind] of kinds) {
      it(`${JSON.stringify(version.length > 40 ? `${version.slice(0, 40)}...` : version)} is ${kind}`, () => expect(versionKind(version)).to.equal(kind));
    }
  });

  it('precedence alone ties what only creation time or the string tell apart', () => {
    for (const [a, b] of [['1.2.3+a', '1.2.3+b'], ['v1.2.3', '1.2.3'], ['1.2', '1.2.0'], ['2024.01.15', '2024.1.15'], ['build-1', 'nightly'], ['1.2.3.0', '1.2.3']]) {
      expect(compareVersionPrecedence(a, b), `${a} ~ ${b}`).to.equal(0);
      expect(versionOrderKey(a)).to.equal(versionOrderKey(b));
    }
  });

  it('sorts a release history newest first', () => {
    const history = [v('1.0.0', 1), v('nightly', 2), v('1.1.0-beta.1', 3), v('1.1.0', 4), v('v1.1.0', 5), v('2024.01.15', 6), v('build-7', 7)];
    expect(history.sort(newestFirst).map((item) => item.version))
      .to.deep.equal(['2024.01.15', 'v1.1.0', '1.1.0', '1.1.0-beta.1', '1.0.0', 'build-7', 'nightly']);
  });

  describe('properties over generated versions', () => {
    const identifier = fc.oneof(
      fc.nat(12).map(String),
      fc.constantFrom('alpha', 'beta', 'rc', 'a', 'b', 'A', 'x-y', '0a', 'alpha0', '-'),
    );
    const semverString = fc
      .record({
        prefix: fc.constantFrom('', '', 'v', 'V'),
        main: fc.tuple(fc.nat(3), fc.nat(3), fc.nat(3)),
        prerelease: fc.array(identifier, { maxLength: 3 }),
        build: fc.constantFrom('', '+1', '+build.5', '+zz'),
      })
      .map(({ prefix, main, prerelease, build }) =>
        `${prefix}${main.join('.')}${prerelease.length ? `-${prerelease.join('.')}` : ''}${build}`);
    const numericString = fc
      .record({
        prefix: fc.constantFrom('', '', 'v'),
        components: fc.array(fc.tuple(fc.boolean(), fc.nat(3)), { minLength: 1, maxLength: 4 }),
      })
      .map(({ prefix, components }) => prefix + components.map(([zero, n]) => `${zero ? '0' : ''}${n}`).join('.'));
    const freeFormString = fc.oneof(
      fc.constantFrom('build-812', 'build-9', 'nightly', '1.2-beta', '1.2.3.4.5', 'v', 'latest', '1.0~rc1'),
      fc.stringMatching(/^[A-Za-z0-9._~+-]{1,12}$/),
    );
    const versionString = fc.oneof(semverString, numericString, freeFormString);
    const ordered = fc.record({ version: versionString, createdAt: fc.nat(3).map(at) });

    it('is antisymmetric, and 0 only for the same version created at the same time', () => {
      fc.assert(fc.property(ordered, ordered, (a, b) => {
        const ab = Math.sign(compareVersions(a, b));
        expect(Math.sign(compareVersions(b, a))).to.equal(-ab || 0);
        expect(ab === 0).to.equal(a.version === b.version && a.createdAt.getTime() === b.createdAt.getTime());
      }), { numRuns: 2000 });
    });

    it('is transitive: every pair of a sorted list is in order', () => {
      fc.assert(fc.property(fc.array(ordered, { minLength: 3, maxLength: 12 }), (items) => {
        const sorted = [...items].sort(compareVersions);
        for (let i = 0; i < sorted.length; i++) {
          for (let j = i + 1; j < sorted.length; j++) {
            expect(compareVersions(sorted[i], sorted[j]), `${shown(sorted[i])} vs ${shown(sorted[j])}`).to.be.at.most(0);
          }
        }
      }), { numRuns: 1000 });
    });

    it('is transitive over triples', () => {
      fc.assert(fc.property(ordered, ordered, ordered, (a, b, c) => {
        if (compareVersions(a, b) <= 0 && compareVersions(b, c) <= 0) expect(compareVersions(a, c)).to.be.at.most(0);
        if (compareVersionPrecedence(a.version, b.version) === 0 && compareVersionPrecedence(b.version, c.version) === 0) {
          expect(compareVersionPrecedence(a.version, c.version)).to.equal(0);
        }
      }), { numRuns: 3000 });
    });

    it('agrees with the semver package on SemVer versions', () => {
      fc.assert(fc.property(semverString, semverString, (a, b) => {
        const strip = (s: string) => s.replace(/^[vV]/, '');
        expect(Math.sign(compareVersionPrecedence(a, b)), `${a} vs ${b}`).to.equal(semverCompare(strip(a), strip(b)));
      }), { numRuns: 2000 });
    });

    it('ranks a numeric version as its zero-padded, zero-stripped SemVer would rank', () => {
      fc.assert(fc.property(numericString, versionString, (numeric, other) => {
        const components = numeric.replace(/^v/, '').split('.').map((n) => String(Number(n)));
        fc.pre(components.length <= 3 || components[3] === '0');
        const asSemVer = [...components.slice(0, 3), '0', '0'].slice(0, 3).join('.');
        expect(Math.sign(compareVersionPrecedence(numeric, other)), `${numeric} (${asSemVer}) vs ${other}`)
          .to.equal(Math.sign(compareVersionPrecedence(asSemVer, other)));
      }), { numRuns: 2000 });
    });

    it('puts every free-form version below every SemVer and numeric one', () => {
      fc.assert(fc.property(freeFormString, fc.oneof(semverString, numericString), (free, versioned) => {
        fc.pre(versionKind(free) === 'free-form');
        expect(compareVersionPrecedence(free, versioned)).to.be.below(0);
      }), { numRuns: 1000 });
    });

    describe('SemVer versions of any size, against the semver package', () => {
      /** A SemVer version's parts: numbers as bigint, so they can be past 2^53. */
      interface SemVerParts {
        prefix: string;
        main: [bigint, bigint, bigint];
        prerelease: Array<bigint | string>;
        build: string[];
      }
      const huge = fc.constantFrom(2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, 10n ** 22n - 1n, 10n ** 22n, 99999999999999999999999n, 2n ** 64n);
      const number = fc.oneof(
        fc.bigInt({ min: 0n, max: 3n }),
        huge,
        fc.bigInt({ min: 0n, max: 10n ** 25n }),
      );
      const alphanumeric = fc.oneof(
        fc.constantFrom('alpha', 'beta', 'rc', 'a', 'A', 'x-y', '0a', 'alpha0', '-', 'Beta'),
        // At least one letter or hyphen: an identifier of digits only is a number.
        fc.tuple(fc.stringMatching(/^[0-9]{0,3}$/), fc.stringMatching(/^[A-Za-z-]$/), fc.stringMatching(/^[0-9A-Za-z-]{0,30}$/))
          .map((pieces) => pieces.join('')),
      );
      const semverParts: fc.Arbitrary<SemVerParts> = fc.record({
        prefix: fc.constantFrom('', '', 'v', 'V'),
        main: fc.tuple(number, number, number),
        prerelease: fc.array(fc.oneof(number, alphanumeric), { maxLength: 4 }),
        build: fc.array(fc.stringMatching(/^[0-9A-Za-z-]{1,10}$/), { maxLength: 2 }),
      });
      const render = (parts: SemVerParts, numeral: (n: bigint) => string): string =>
        parts.main.map(numeral).join('.')
        + (parts.prerelease.length ? `-${parts.prerelease.map((id) => (typeof id === 'bigint' ? numeral(id) : id)).join('.')}` : '')
        + (parts.build.length ? `+${parts.build.join('.')}` : '');
      const written = (parts: SemVerParts) => parts.prefix + render(parts, String);
      /**
       * Both versions with every number replaced by its rank among the numbers of the two: the
       * same order between any two of their numbers, small enough for the semver package.
       */
      const scaledDown = (a: SemVerParts, b: SemVerParts): [string, string] => {
        const numbers = [a, b].flatMap((parts) => [...parts.main, ...parts.prerelease.filter((id): id is bigint => typeof id === 'bigint')]);
        const ranks = [...new Set(numbers)].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
        const rank = (n: bigint) => String(ranks.indexOf(n));
        return [render(a, rank), render(b, rank)];
      };

      it('writes the generated versions within the ordered length', () => {
        fc.assert(fc.property(semverParts, (parts) => {
          expect(written(parts).length).to.be.at.most(256);
          expect(versionKind(written(parts))).to.equal('semver');
        }), { numRuns: 500 });
      });

      it('compares as semver compares the versions scaled down, and the order keys agree', () => {
        fc.assert(fc.property(semverParts, semverParts, fc.nat(3), fc.nat(3), (a, b, createdA, createdB) => {
          const [x, y] = [written(a), written(b)];
          const expected = semverCompare(...scaledDown(a, b));
          expect(Math.sign(compareVersionPrecedence(x, y)), `${x} vs ${y}`).to.equal(expected);
          const [keyX, keyY] = [versionOrderKey(x), versionOrderKey(y)];
          expect(keyX < keyY ? -1 : keyX > keyY ? 1 : 0, `keys of ${x} vs ${y}`).to.equal(expected);
          // The total order refines precedence: only a tie is decided by creation time and the string.
          const total = Math.sign(compareVersions(v(x, createdA), v(y, createdB)));
          if (expected !== 0) expect(total).to.equal(expected);
        }), { numRuns: 5000 });
      });

      it('compares a version with itself spelled with another prefix or build as equal', () => {
        fc.assert(fc.property(semverParts, fc.constantFrom('', 'v', 'V'), fc.stringMatching(/^[0-9A-Za-z-]{1,10}$/), (parts, prefix, build) => {
          const other = { ...parts, prefix, build: [build] };
          expect(compareVersionPrecedence(written(parts), written(other))).to.equal(0);
          expect(versionOrderKey(written(parts))).to.equal(versionOrderKey(written(other)));
        }), { numRuns: 500 });
      });

      it('takes as SemVer exactly what the semver package takes, for numbers it can read', () => {
        const small = semverParts.filter((parts) => [...parts.main, ...parts.prerelease].every((id) => typeof id !== 'bigint' || id <= 2n ** 53n - 1n));
        const edit = fc.tuple(fc.nat(), fc.constantFrom('', '.', '-', '+', '0', '01', 'a', '..', '+.', '-.'), fc.nat(2));
        fc.assert(fc.property(small, edit, (parts, [at, inserted, removed]) => {
          const body = render(parts, String);
          const cut = at % (body.length + 1);
          const edited = body.slice(0, cut) + inserted + body.slice(cut + removed);
          fc.pre(/^\d/.test(edited) && (edited.match(/\d+/g) ?? []).every((digits) => BigInt(digits) < 2n ** 53n));
          expect(versionKind(edited) === 'semver', edited).to.equal(semverValid(edited) !== null);
        }), { numRuns: 3000 });
      });

      it('gives keys that SQLite orders as semver orders the versions', () => {
        const db = new Database(':memory:');
        try {
          db.exec('CREATE TABLE versions (version TEXT PRIMARY KEY, orderKey TEXT NOT NULL)');
          const insert = db.prepare('INSERT OR IGNORE INTO versions (version, orderKey) VALUES (?, ?)');
          fc.assert(fc.property(fc.array(semverParts, { minLength: 2, maxLength: 12 }), (all) => {
            db.exec('DELETE FROM versions');
            for (const parts of all) insert.run(written(parts), versionOrderKey(written(parts)));
            const fromSqlite = db.prepare('SELECT version FROM versions ORDER BY orderKey').pluck().all() as string[];
            for (let i = 1; i < fromSqlite.length; i++) {
              const [lower, higher] = [all.find((p) => written(p) === fromSqlite[i - 1])!, all.find((p) => written(p) === fromSqlite[i])!];
              expect(semverCompare(...scaledDown(lower, higher)), `${fromSqlite[i - 1]} then ${fromSqlite[i]}`).to.be.at.most(0);
            }
          }), { numRuns: 300 });
        } finally {
          db.close();
        }
      });
    });

    it('gives ASCII keys that SQLite orders as the precedence does', () => {
      const db = new Database(':memory:');
      try {
        db.exec('CREATE TABLE versions (version TEXT PRIMARY KEY, orderKey TEXT NOT NULL)');
        const insert = db.prepare('INSERT OR IGNORE INTO versions (version, orderKey) VALUES (?, ?)');
        fc.assert(fc.property(fc.array(versionString, { minLength: 2, maxLength: 20 }), (versions) => {
          db.exec('DELETE FROM versions');
          for (const version of versions) {
            const key = versionOrderKey(version);
            expect(key).to.match(/^[\x21-\x7e]+$/);
            insert.run(version, key);
          }
          const fromSqlite = db.prepare('SELECT version FROM versions ORDER BY orderKey, version').pluck().all() as string[];
          const inMemory = [...new Set(versions)].sort((a, b) => compareVersionPrecedence(a, b) || (a < b ? -1 : a > b ? 1 : 0));
          expect(fromSqlite).to.deep.equal(inMemory);
        }), { numRuns: 300 });
      } finally {
        db.close();
      }
    });
  });
});
