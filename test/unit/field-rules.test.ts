import { expect } from 'chai';
import type { ZodTypeAny } from 'zod';
import {
  applicationIdField,
  contentTypeField,
  customerIdField,
  descriptionField,
  fileNameField,
  generatedIdField,
  nameField,
  newApplicationIdField,
  newCustomerIdField,
  newVersionField,
  notesField,
  releaseNotesField,
  RESERVED_WORDS,
  tagField,
  versionField,
} from '../../shared/contract/fields';

/** The regular expression semver.org gives for SemVer 2.0, to prove the SemVer rows below are SemVer. */
const SEMVER_2 =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

const SEMVER_VERSIONS = [
  '0.0.0', '0.0.4', '1.2.3', '10.20.30', '1.0.0', '2.0.0', '1.1.7', '1.0.0-alpha', '1.0.0-alpha.1',
  '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0-0.3.7',
  '1.0.0-x.7.z.92', '1.0.0-x-y-z.--', '1.0.0-alpha+001', '1.0.0+20130313144700', '1.0.0-beta+exp.sha.5114f85',
  '1.0.0+21AF26D3----117B344092BD', '1.1.2-prerelease+meta', '1.1.2+meta-valid', '1.0.0-alpha-a.b-c-somethinglong+build.1-aef.1-its-okay',
  '1.2.3-beta.1+build.5', '1.2.3----RC-SNAPSHOT.12.9.1--.12+788', '1.2.3----R-S.12.9.1--.12+meta', '1.0.0-alpha0.valid',
  '2.0.0+build.1848', '99999999999999999999999.999999999999999999.99999999999999999',
];

/** Visible test names for strings full of control characters. */
const shown = (value: string) => JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

interface FieldRule {
  field: string;
  schema: ZodTypeAny;
  /** Accepted values; a pair gives the value and what it becomes. */
  accepted: Array<string | [string, string]>;
  refused: string[];
}

/** Control characters refused in every field, whatever its kind. */
const ALWAYS_REFUSED = ['\u0000', '\u0007', '\u000B', '\u000C', '\u001B', '\u007F', '\u0080', '\u0085', '\u009B', '\u2028', '\u2029'];
const LONE_SURROGATES = ['\ud800', '\udfff', 'x\ud83dy'];
const BIDI_CONTROLS = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'];
const LINE_BREAKS = ['\n', '\r\n', '\r', '\t'];
const within = (c: string) => `before${c}after`;

const singleLineRefusals = [...ALWAYS_REFUSED, ...LONE_SURROGATES, ...BIDI_CONTROLS, ...LINE_BREAKS].map(within);
const multiLineRefusals = [...ALWAYS_REFUSED, ...LONE_SURROGATES, '\r', 'lone CR\rin the middle'].map(within);
const MULTI_LINE_TEXT = ['', 'line one\nline two', 'windows\r\nline\r\nbreaks\r\n', '\ttabbed\tcolumns', 'right-to-left \u202Bembedded\u202C and \u2067isolated\u2069',
  'Ünïcödé 名前 🚀 👨‍👩‍👧', 'مرحبا بالعالم', '\n\nleading and trailing\n\n'];

const RULES: FieldRule[] = [
  {
    field: 'name (applications and customers)',
    schema: nameField,
    accepted: ['Acme Corp', 'Ünïcödé 名前', 'Launch 🚀', 'O\u2019Brien & Sons', 'family 👨‍👩‍👧', 'مرحبا', 'with a mark\u200E', 'x'.repeat(200),
      ['  padded  ', 'padded'], ['trailing newline\n', 'trailing newline']],
    refused: ['', '   ', 'x'.repeat(201), ...singleLineRefusals, 'invoice\u202Eexe.pdf'],
  },
  {
    field: 'tag',
    schema: tagField,
    accepted: ['beta', 'windows-x64', 'ünïcödé', 'x'.repeat(64), [' spaced ', 'spaced']],
    refused: ['', ' ', 'x'.repeat(65), ...singleLineRefusals],
  },
  {
    field: 'fileName',
    schema: fileNameField,
    accepted: ['setup.exe', 'My App 1.0.dmg', 'résumé.pdf', '.hidden', '...', 'app-v1.2.3+build.5.tar.gz', 'x'.repeat(255)],
    refused: ['', '.', '..', 'a/b', '../etc/passwd', 'a\\b', 'x'.repeat(256), 'invoice\u202Eexe.pdf', ...singleLineRefusals],
  },
  { field: 'description', schema: descriptionField, accepted: [...MULTI_LINE_TEXT, 'x'.repeat(2000)], refused: [...multiLineRefusals, 'x'.repeat(2001)] },
  { field: 'notes', schema: notesField, accepted: [...MULTI_LINE_TEXT, 'x'.repeat(2000)], refused: [...multiLineRefusals, 'x'.repeat(2001)] },
  { field: 'releaseNotes', schema: releaseNotesField, accepted: [...MULTI_LINE_TEXT, 'x'.repeat(20_000)], refused: [...multiLineRefusals, 'x'.repeat(20_001)] },
  {
    field: 'version of a new upload',
    schema: newVersionField,
    accepted: [...SEMVER_VERSIONS, ...SEMVER_VERSIONS.map((v) => `v${v}`), 'V1.0.0', '2024.01.15', '2024.1.15-2', 'build-812', '1', '5.0', '1.0~rc1',
      '1.0_beta', 'r1234', 'a', '.1', '...', '1..2', 'proto', 'Latest', 'latest-1', 'x'.repeat(128)],
    refused: ['', '.', '..', '1.0/2', '/1.0', 'a\\b', '100%', '%2e', '%2E%2E', '1%00', '?x', '1.0?', '1#2', '#', '1.0 beta', ' 1.0', '1.0 ', '1.0\t',
      '1.0\n', '1.0\r\n', '1&2', '1=2', '1;2', '1:2', '1,2', '1@2', '1!', '1*', "1'", '1"', '1<2>', '(1)', '[1]', '{1}', '1|2', '1^2', '1`',
      '1$', 'ünï', '1.0\u00a0', '\u2024\u2024', 'x'.repeat(129), ...ALWAYS_REFUSED.map(within), ...BIDI_CONTROLS.map(within),
      '__proto__', '__PROTO__', 'constructor', 'Constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'latest'],
  },
  {
    field: 'version naming an existing one',
    schema: versionField,
    accepted: [...SEMVER_VERSIONS.slice(0, 5), 'v1.2.3-beta.1+build.5', '2024.01.15', 'build-812', '.', '..', '%', '?x', '1#2', '__proto__', 'latest', 'x'.repeat(128)],
    refused: ['', 'a/b', 'a b', '1.0\n', 'ünï', 'x'.repeat(129), ...ALWAYS_REFUSED.map(within)],
  },
  {
    field: 'applicationId of a new application',
    schema: newApplicationIdField,
    accepted: ['desktop-client', 'a', 'app-2', '2fa', 'proto', 'constructors', 'to-string', 'x'.repeat(64)],
    refused: ['', 'constructor', 'prototype', 'tostring', 'valueof', 'hasownproperty', 'isprototypeof', '__proto__', 'Desktop', 'a--b', '-a', 'a-',
      'a_b', 'a.b', 'x'.repeat(65), 'a\u0000', 'app\n'],
  },
  {
    field: 'applicationId naming an existing one',
    schema: applicationIdField,
    accepted: ['desktop-client', 'constructor', 'prototype'],
    refused: ['', '__proto__', 'Desktop', '%', '..', 'a\u0000', 'x'.repeat(65)],
  },
  {
    field: 'customerId of a new customer',
    schema: newCustomerIdField,
    accepted: ['acme', 'cus_abc', 'A-b_1', 'Proto', '_proto_', 'constructor_', 'x'.repeat(64)],
    refused: ['', '__proto__', '__PROTO__', 'constructor', 'Constructor', 'CONSTRUCTOR', 'prototype', 'hasOwnProperty', 'toString', 'valueOf',
      '__defineGetter__', 'a.b', 'a b', 'ü', 'x'.repeat(65), 'a\u0000', 'a\n'],
  },
  {
    field: 'customerId naming an existing one',
    schema: customerIdField,
    accepted: ['acme', '__proto__', 'constructor'],
    refused: ['', 'a.b', '%', 'a\u0000', 'x'.repeat(65)],
  },
  {
    field: 'generated id (fileId, uploadId)',
    schema: generatedIdField,
    accepted: ['fil_AbC-_123', 'upl_x', 'x'.repeat(100)],
    refused: ['', 'a/b', 'a.b', '%00', '..', 'a b', 'x'.repeat(101), ...ALWAYS_REFUSED.map(within)],
  },
  {
    field: 'contentType',
    schema: contentTypeField,
    accepted: ['application/octet-stream', 'text/plain; charset=utf-8', 'text/plain;charset="utf-8"', 'application/x-msdownload', 'text/plain ;\tq=1'],
    refused: ['', 'noslash', 'text/plain;\ncharset=utf-8', 'text/plain;\r\nX-Injected: 1', 'text/plain; a="\n"', 'text/plain; a="\u0000"',
      'text/plain; a="\u0085"', 'text/plain\u2028; a=b'],
  },
];

describe('field rules (shared/contract/fields.ts)', () => {
  for (const { field, schema, accepted, refused } of RULES) {
    describe(field, () => {
      for (const entry of accepted) {
        const [value, becomes] = typeof entry === 'string' ? [entry, entry] : entry;
        it(`accepts ${shown(value.length > 40 ? `${value.slice(0, 20)}…(${value.length})` : value)}`, () => {
          const result = schema.safeParse(value);
          expect(result.success, JSON.stringify(result.error?.issues)).to.equal(true);
          expect(result.data).to.equal(becomes);
        });
      }
      for (const value of refused) {
        it(`refuses ${shown(value.length > 40 ? `${value.slice(0, 20)}…(${value.length})` : value)}`, () => {
          const result = schema.safeParse(value);
          expect(result.success, `${shown(value)} was accepted`).to.equal(false);
          expect(result.error?.issues[0]?.message).to.be.a('string').that.is.not.empty;
        });
      }
    });
  }

  it('the SemVer rows are SemVer 2.0 strings', () => {
    for (const version of SEMVER_VERSIONS) expect(version, version).to.match(SEMVER_2);
  });

  it('refuses every property name of plain objects as a reserved word', () => {
    const inherited = Object.getOwnPropertyNames(Object.prototype);
    expect(RESERVED_WORDS).to.include.members([...inherited, 'prototype']);
    for (const word of inherited) {
      expect(newCustomerIdField.safeParse(word).success, word).to.equal(false);
      expect(newVersionField.safeParse(word).success, word).to.equal(false);
    }
  });

  it('refuses non-strings with a message', () => {
    for (const schema of [nameField, notesField, newVersionField, newCustomerIdField, fileNameField]) {
      for (const value of [42, null, ['a'], { a: 1 }, true]) {
        const result = schema.safeParse(value);
        expect(result.success).to.equal(false);
        expect(result.error?.issues[0]?.message).to.equal('must be a string');
      }
    }
  });
});
