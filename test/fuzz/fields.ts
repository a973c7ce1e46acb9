import fc from 'fast-check';
import type { FieldRule } from './mutations';
import {
  ENCODED_HOSTILE,
  insertedIn,
  jsonNotArray,
  jsonNotBoolean,
  jsonNotNullableString,
  jsonNotNumber,
  jsonNotString,
  jsonString,
  MULTI_LINE_CONTROLS,
  PROTOTYPE_KEYS,
  SINGLE_LINE_CONTROLS,
  tooLong,
  TRAVERSALS,
  unknownId,
  unusualText,
} from './values';

/*
 * The rules of each kind of field, as text (what a form field, a query parameter or a path segment
 * carries) and as JSON. Invalid texts break the README's rules or the rules for stored text: no
 * control characters in one-line text (surrounding whitespace is trimmed from names, so controls
 * that trimming removes are placed inside), none but tab and line breaks in multi-line text, no
 * reserved words as new ids, no path-significant characters in new versions.
 */

/** `base` with one of `insertions` strictly inside it, where trimming cannot remove it. */
function insertedInside(base: string, insertions: readonly string[]): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...insertions), fc.integer({ min: 1, max: base.length - 1 })).map(([insertion, at]) => `${base.slice(0, at)}${insertion}${base.slice(at)}`);
}

const oneOf = (...values: string[]) => fc.constantFrom(...values);

// ---------------------------------------------------------------------------------------------
// Texts.

export const text = {
  /** Not an application id at all (refused whether it names a new one or an existing one). */
  badApplicationId: fc.oneof(
    oneOf(' ', 'A', 'App', 'a_b', '-a', 'a-', 'a--b', 'a b', 'a.b', 'é', '__proto__', 'x'.repeat(65), ...TRAVERSALS),
    insertedIn('app', SINGLE_LINE_CONTROLS),
  ),
  /** Well formed, but reserved for a new application. */
  reservedApplicationId: oneOf('constructor', 'prototype'),
  badNewVersion: fc.oneof(
    oneOf(' ', '1 0', '1/0', '.', '..', '%', '?x', '#x', '1.0?x', '1.0#x', '1%2F0', '1\\0', 'v'.repeat(129), '__proto__', 'é', '😀', '1.0 ', ''),
    insertedIn('1.0', [...SINGLE_LINE_CONTROLS, '\t']),
  ),
  /** Not a version anything could have stored: refused, or not found. */
  badVersionReference: fc.oneof(oneOf(' ', '1 0', 'v'.repeat(129), 'é', '😀', '9.9.9', '..', '.', '%'), insertedIn('1.0', SINGLE_LINE_CONTROLS)),
  badName: fc.oneof(oneOf('', ' ', '   ', '\t'), tooLong(200), insertedInside('Name', SINGLE_LINE_CONTROLS), insertedIn('Name', ['\u0000', '\u001b', '\u007f'])),
  badTag: fc.oneof(oneOf('', ' '), tooLong(64), insertedInside('tag', SINGLE_LINE_CONTROLS)),
  badMultiLine: (max: number) => fc.oneof(tooLong(max), insertedIn('Some notes', MULTI_LINE_CONTROLS)),
  badFileName: fc.oneof(oneOf('', '.', '..', '../x.bin', 'a/b.bin', 'a\\b.bin', '/etc/passwd', '..\\..\\x'), tooLong(255), insertedIn('f.bin', SINGLE_LINE_CONTROLS)),
  badTier: oneOf('', 'gold', 'FREE', 'free ', ' premium', 'Premium', '__proto__', 'constructor', 'toString'),
  badFileType: oneOf('main', 'EXE', '', 'MAIN ', '__proto__', 'constructor', 'Main'),
  badPlatform: oneOf('win32', 'darwin', 'Windows', '', 'linux ', '__proto__', 'constructor'),
  badArch: oneOf('x86_64', 'aarch64', 'X64', '', 'arm', '__proto__', 'toString'),
  /** Not one of the default CHANNELS, or reserved by electron-updater. */
  badChannel: oneOf('latest', 'nightly', 'Stable', 'beta ', '', '__proto__', 'constructor'),
  /** Not what an upload may create its version as: `yanked` only ever follows publishing. */
  badUploadStatus: oneOf('yanked', 'Draft', 'PUBLISHED', '', '__proto__'),
  badContentType: oneOf('', 'text', 'text/', '/html', 'text/html\r\nX-Evil: 1', 'text/html; charset', 'text html', 'a/b;', 'x'.repeat(300)),
  badChecksum: oneOf('', 'abc', `sha256:${'a'.repeat(63)}`, `sha1:${'a'.repeat(40)}`, 'g'.repeat(64), `sha256:${'a'.repeat(65)}`, `SHA256:${'a'.repeat(64)}`, `${'a'.repeat(64)}\n`),
  /** Not a customer id, or reserved for a new one. */
  badNewCustomerId: fc.oneof(oneOf('__proto__', 'constructor', 'prototype', '', 'a.b', 'a b', 'x'.repeat(65), 'é', '../x', 'a/b'), insertedIn('c', SINGLE_LINE_CONTROLS)),
  /** Path segments that name nothing: traversal, reserved words, hostile escapes, unknown ids. */
  hostileSegment: (prefix: string) => fc.oneof(
    oneOf(...TRAVERSALS, ...PROTOTYPE_KEYS, 'x'.repeat(5000)),
    fc.constantFrom(...ENCODED_HOSTILE).map((escape) => `${prefix}${escape}`),
    unknownId(prefix),
  ),
};

// ---------------------------------------------------------------------------------------------
// JSON fields.

const json = (arbitrary: fc.Arbitrary<string>) => arbitrary.map(jsonString);

export const fields = {
  newApplicationId: (taken: string[]): FieldRule => ({
    required: true,
    valid: unknownId('new').map(jsonString),
    invalid: fc.oneof(json(text.badApplicationId), json(text.reservedApplicationId), json(oneOf(...taken)), jsonNotString),
    expects: [400, 409],
  }),
  applicationReference: (missing: string[], required = true): FieldRule => ({
    required,
    valid: fc.constant('"unused"'),
    invalid: fc.oneof(json(text.badApplicationId), json(unknownId('app')), json(oneOf(...missing)), jsonNotString),
    expects: [400, 404],
  }),
  name: (required: boolean): FieldRule => ({
    required,
    valid: json(oneOf('Renamed', 'Ünïcödé name', 'a', '  padded  ')),
    invalid: fc.oneof(json(text.badName), jsonNotString),
    unusual: json(unusualText('Name')),
  }),
  multiLine: (max: number, options: { required?: boolean; nullable: boolean }): FieldRule => ({
    required: options.required ?? false,
    valid: fc.oneof(json(oneOf('line one\nline two', 'tab\tseparated', 'windows\r\nline', '')), ...(options.nullable ? [fc.constant('null')] : [])),
    invalid: fc.oneof(json(text.badMultiLine(max)), options.nullable ? jsonNotNullableString : jsonNotString),
    unusual: json(unusualText('Notes')),
  }),
  tags: (): FieldRule => ({
    valid: oneOf('[]', '["fuzz"]', '["a","b"]'),
    invalid: fc.oneof(
      jsonNotArray,
      oneOf('[1]', '[""]', '[" "]', '[null]', '[[]]', '[{}]', JSON.stringify(Array.from({ length: 51 }, (_, i) => `t${i}`))),
      text.badTag.map((tag) => JSON.stringify([tag])),
    ),
    unusual: unusualText('tag').map((tag) => JSON.stringify([tag])),
  }),
  customerIds: (existing: string[]): FieldRule => ({
    valid: fc.subarray(existing).map((ids) => JSON.stringify(ids)),
    invalid: fc.oneof(jsonNotArray, oneOf('[1]', '[null]', '["a.b"]', '["__proto__"]', '[""]'), unknownId('cus').map((id) => JSON.stringify([id]))),
  }),
  newVersion: (): FieldRule => ({ required: true, valid: unknownId('v').map(jsonString), invalid: fc.oneof(json(text.badNewVersion), jsonNotString) }),
  versionReference: (): FieldRule => ({ required: true, valid: fc.constant('"unused"'), invalid: fc.oneof(json(text.badVersionReference), jsonNotString), expects: [400, 404] }),
  fileName: (required: boolean): FieldRule => ({ required, valid: json(oneOf('x.bin', 'Setup 1.0.exe', 'ünïcode.tar.gz')), invalid: fc.oneof(json(text.badFileName), jsonNotString), unusual: json(unusualText('f.bin')) }),
  fileSize: (): FieldRule => ({
    required: true,
    valid: oneOf('1', '1000', '5368709120'),
    invalid: fc.oneof(oneOf('0', '-1', '1.5', '5368709121', '1e999', '-1e999', '1e400', '9007199254740993', '18446744073709551616', '-0'), jsonNotNumber),
  }),
  /** A multipart upload's size: up to 5 TiB. */
  multipartFileSize: (): FieldRule => ({
    required: true,
    valid: oneOf('1', '20971520', '5368709121', '5497558138880'),
    invalid: fc.oneof(oneOf('0', '-1', '1.5', '5497558138881', '1e999', '-1e999', '9007199254740993', '-0'), jsonNotNumber),
  }),
  /** Part numbers of an upload of `partCount` parts. */
  partNumbers: (partCount: number): FieldRule => ({
    required: true,
    valid: oneOf('[1]', JSON.stringify(Array.from({ length: partCount }, (_, i) => i + 1)), `[${partCount}, 1]`),
    invalid: fc.oneof(
      jsonNotArray,
      oneOf('[]', '[0]', '[-1]', '[1.5]', '["1"]', '[null]', '[1, 1]', `[${partCount + 1}]`, '[10001]', '[1e999]', JSON.stringify(Array.from({ length: 101 }, (_, i) => i + 1))),
    ),
  }),
  contentType: (): FieldRule => ({ valid: json(oneOf('application/zip', 'text/plain; charset=utf-8')), invalid: fc.oneof(json(text.badContentType), jsonNotString) }),
  fileType: (): FieldRule => ({ valid: json(oneOf('MAIN', 'DEPENDENCY', 'SIGNATURE', 'DOCUMENTATION', 'OTHER')), invalid: fc.oneof(json(text.badFileType), jsonNotString) }),
  platform: (): FieldRule => ({ valid: json(oneOf('windows', 'macos', 'linux', 'any')), invalid: fc.oneof(json(text.badPlatform), jsonNotString) }),
  /** `universal` is valid only with platform macos, which another field decides: a mutation of its own tries it. */
  arch: (): FieldRule => ({ valid: json(oneOf('x64', 'arm64', 'ia32', 'armv7l', 'any')), invalid: fc.oneof(json(text.badArch), jsonNotString) }),
  /**
   * A maintenance window's range: valid ones admit every version (the fixtures' other routes keep their
   * offers); one semver cannot read is 422, a wrong type or blank text 400.
   */
  versionRange: (): FieldRule => ({
    valid: fc.constantFrom('">=0.0.0-0"', '"*"', 'null'),
    invalid: fc.oneof(fc.constantFrom('"not a range"', '"1.2.3.4"', '">=one"', '""', '"<3\\n"', `"${'1'.repeat(201)}"`), jsonNotNullableString),
    expects: [400, 422],
  }),
  /** A maintenance window's end: far enough that every fixture release is inside it. */
  updatesUntil: (): FieldRule => ({
    valid: fc.constantFrom('"2999-01-01T00:00:00Z"', 'null'),
    invalid: fc.oneof(fc.constantFrom('"tomorrow"', '"2027-02-30T00:00:00Z"', '""'), jsonNotNullableString),
  }),
  channel: (): FieldRule => ({ valid: json(oneOf('stable', 'rc', 'beta', 'alpha', 'dev')), invalid: fc.oneof(json(text.badChannel), jsonNotString) }),
  uploadStatus: (): FieldRule => ({ valid: json(oneOf('draft', 'published')), invalid: fc.oneof(json(text.badUploadStatus), jsonNotString) }),
  tier: (required: boolean, nullable = false): FieldRule => ({
    required,
    valid: fc.oneof(json(oneOf('free', 'standard', 'premium', 'enterprise')), ...(nullable ? [fc.constant('null')] : [])),
    invalid: fc.oneof(json(text.badTier), nullable ? jsonNotNullableString : jsonNotString),
  }),
  checksum: (): FieldRule => ({ valid: json(oneOf(`sha256:${'a'.repeat(64)}`, 'B'.repeat(64))), invalid: fc.oneof(json(text.badChecksum), jsonNotString) }),
  boolean: (): FieldRule => ({ valid: oneOf('true', 'false'), invalid: jsonNotBoolean }),
  expiresInMinutes: (): FieldRule => ({ valid: oneOf('1', '30', '1440'), invalid: fc.oneof(oneOf('0', '-1', '1441', '1.5', '1e999', '1e5', '-0'), jsonNotNumber) }),
  licenceRevision: (): FieldRule => ({ valid: oneOf('1', '2', '1000000'), invalid: fc.oneof(oneOf('0', '-1', '1000001', '1.5', '1e999', '-0'), jsonNotNumber) }),
  maxDownloads: (): FieldRule => ({ valid: oneOf('1', '10', '100000'), invalid: fc.oneof(oneOf('0', '-1', '100001', '1.5', '1e999', '1e6', '-0'), jsonNotNumber) }),
  fileId: (): FieldRule => ({ valid: fc.constant('"unused"'), invalid: fc.oneof(json(oneOf('', 'x'.repeat(101))), json(unknownId('fil')), jsonNotString), expects: [400, 404] }),
  newCustomerId: (taken: string[]): FieldRule => ({
    valid: unknownId('cus').map(jsonString),
    invalid: fc.oneof(json(text.badNewCustomerId), json(oneOf(...taken)), jsonNotString),
    expects: [400, 409],
  }),
};

/** A field whose valid values depend on the fixture. */
export const withValid = (rule: FieldRule, valid: fc.Arbitrary<string>): FieldRule => ({ ...rule, valid });
