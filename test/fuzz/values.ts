import fc from 'fast-check';

/*
 * Catalogues of hostile values, and arbitraries over them. "Invalid" values break a documented rule
 * (README, or the rules for stored text); "unusual" ones are legal or a matter of rules still open,
 * and only ever travel alongside a defect.
 */

/** Never in one-line text (names, tags, file names, ids): NUL, CR/LF, DEL, escapes, Unicode line breaks. */
export const SINGLE_LINE_CONTROLS = ['\u0000', '\r', '\n', '\r\n', '\u0007', '\u0008', '\u001b', '\u007f', '\u2028', '\u2029'];
/** Never in multi-line text (descriptions, notes, release notes): controls other than tab and line breaks. */
export const MULTI_LINE_CONTROLS = ['\u0000', '\u0001', '\u0007', '\u0008', '\u000b', '\u000c', '\u001b', '\u001f', '\u007f'];
/** Legal, or allowed by some rules and not others: they test robustness, not the rules. */
export const UNUSUAL_CHARACTERS = [
  '\t', '\n', '\r\n', '\r', '\u0085', '\u00a0', '\u200b', '\u202e', '\u2066', '\ufeff', '\ufffd', '\ud800', '\udfff',
  '\uffff', '😀', 'é', 'İ', 'ǅ', '%00', '%s%n', '${x}', '{{x}}', "' OR '1'='1", '{"$gt":""}', '<script>', '\\',
];
export const TRAVERSALS = [
  '..', '.', '...', '../..', '../../etc/passwd', '%2e%2e', '%2E%2E%2F%2E%2E', '..%2f', '..%2F..%2F', '%2F', '%2f..%2f',
  '%252e%252e', '..%5c..', '%c0%ae%c0%ae', '.%2e', '%2e.', './.',
];
/** Property names of every JavaScript object. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];
/** Percent-encoded bytes no id holds: controls, separators, invalid UTF-8, overlong forms. */
export const ENCODED_HOSTILE = ['%00', '%0D%0A', '%0a', '%7F', '%E2%80%A8', '%ff', '%fe%ff', '%c0%af', '%ed%a0%80', '%20', '%2F', '%3F', '%23', '%25', '%', '%zz', '%u002e'];
/** Declared lengths no body here may have; 2^31 and more wrap around in a 32-bit conversion. */
export const HUGE_LENGTHS = [2 ** 31 - 1, 2 ** 31, 2 ** 31 + 1, 2 ** 32, 2 ** 32 + 10, 2 ** 53, 1e15, 6 * 1024 ** 3];

/** `base` with one of `insertions` at a generated position (start, inside or end). */
export function insertedIn(base: string, insertions: readonly string[]): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...insertions), fc.nat({ max: base.length })).map(([insertion, at]) => `${base.slice(0, at)}${insertion}${base.slice(at)}`);
}

/** Strings just past `max` characters, and far past it. */
export function tooLong(max: number, unit = 'x'): fc.Arbitrary<string> {
  return fc.constantFrom(max + 1, max + 7, max * 3).map((length) => unit.repeat(length));
}

/** Text built from unusual characters, with ordinary text around them. */
export function unusualText(base: string): fc.Arbitrary<string> {
  return fc.oneof(insertedIn(base, UNUSUAL_CHARACTERS), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).map((s) => `${base}${s}`));
}

const BASE64URL = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_');
const LOWER_ALNUM = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789');

/** Base64url text of `length` characters (keys, tokens, signatures are made of it). */
export const base64url = (length: number) => fc.string({ unit: BASE64URL, minLength: length, maxLength: length });

const ID_SUFFIX = fc.string({ unit: LOWER_ALNUM, minLength: 6, maxLength: 12 });
/** An unknown id, shaped like a real one. */
export const unknownId = (prefix: string) => ID_SUFFIX.map((s) => `${prefix}-${s}`);

/** A path segment of URL-safe characters. */
export const plainSegment = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789._~-'), minLength: 1, maxLength: 20 });

// ---------------------------------------------------------------------------------------------
// JSON values of the wrong type, as raw JSON text. 1e999 parses to Infinity; the deep array is
// valid JSON that is deeper than anything expected.

const DEEP = `${'['.repeat(2000)}${']'.repeat(2000)}`;
const NUMBERS = ['0', '-1', '1.5', '-0', '1e999', '-1e999', '18446744073709551616', '9007199254740993', '1e-400', '0.1e1'];
const OBJECTS = ['{}', '{"$ne":null}', '{"$gt":""}', '{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"polluted":true}}}'];
const ARRAYS = ['[]', '[null]', '["x"]', '[[]]', DEEP];

export const jsonNotString = fc.constantFrom('null', 'true', 'false', ...NUMBERS, ...OBJECTS, ...ARRAYS);
export const jsonNotNullableString = fc.constantFrom('true', 'false', ...NUMBERS, ...OBJECTS, ...ARRAYS);
export const jsonNotNumber = fc.constantFrom('null', 'true', '"1"', '"1000"', '""', '"NaN"', ...OBJECTS, ...ARRAYS);
export const jsonNotBoolean = fc.constantFrom('null', '0', '1', '"true"', '"false"', '""', ...OBJECTS, ...ARRAYS);
export const jsonNotArray = fc.constantFrom('null', 'true', '0', '"x"', '""', ...OBJECTS);

/** A JSON string literal. */
export const jsonString = (value: string) => JSON.stringify(value);

/** Texts that are not JSON, or not a JSON object. */
export const MALFORMED_JSON = [
  '{', '}', '{"a":}', '{"a" 1}', "{'a':1}", '{"a":1,}', '{,}', '{"a":1}}', '{"a":1}{"b":2}', '[1,]', 'NaN', '{"a":NaN}',
  '{"a":Infinity}', '{"a":1e}', '{"a":01}', '{"a":"\\x"}', '{"a":"\\u12"}', '{"a":"\u0000"}', '{"a":"\n"}', 'nul', 'undefined',
  '{"a":undefined}', '<xml/>', 'a=1&b=2', '\u0000', ' ', '//{}', '{/*x*/}',
];
export const NOT_AN_OBJECT = ['null', '[]', '[{}]', '"x"', '1', 'true', '""', DEEP];

// ---------------------------------------------------------------------------------------------
// Query-string values (sent percent-encoded).

export const NOT_A_PAGE = ['-1', '0', '1.5', '-0', 'NaN', 'Infinity', '1e3', '0x10', ' 1', '1 ', '+1', '٣', '１', '1000001', '99999999999999999999', '', 'abc', '[]', '1,2'];
export const NOT_A_PAGE_SIZE = [...NOT_A_PAGE.filter((v) => v !== '1000001'), '101', '1000'];
export const NOT_A_BOOLEAN = ['yes', 'no', '1', '0', 'TRUE', 'True', 'false ', '', 'null', 'on'];
export const NOT_A_DATE = ['', '2024-02-30', '2024-13-01', '2023-02-29', '24-01-01', '2024-1-1', '2024-01-01T00:00:00Z', 'yesterday', '0000-00-00', '+02024-01-01', '2024-01-01 ', '2024/01/01', '2024-01-00'];

/**
 * Percent-encodes a value for a query string or a path segment. A lone surrogate, which has no
 * UTF-8 form, is sent as the three bytes it would take (WTF-8): escaped bytes that are not UTF-8.
 */
export const encoded = (value: string) => [...value].map((char) => {
  const code = char.charCodeAt(0);
  if (char.length === 1 && code >= 0xd800 && code <= 0xdfff) {
    return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
  }
  return encodeURIComponent(char);
}).join('');
