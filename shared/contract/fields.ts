import { z } from 'zod';
import './openapi-extension';
import { characterCount } from '../text-length';
import { CUSTOMER_ID_PATTERN } from '../customer-ids';
import { ARCHS, PLATFORMS } from '../releases/platforms';
import { LATEST_VERSION } from '../releases/version-order';
import { base64Text, MinisignFormatError, readMinisignPublicKey, readSparklePublicKey, SparkleFormatError } from '../signing/public-keys';
import { isVersionRange } from '../releases/maintenance-window';
import { invalidVersionRange } from '../errors';
import { VERSION_RANGE_MAX_LENGTH } from '../policy';

/*
 * Field rules shared by every schema. Two kinds of rule for the same field:
 * - a field that names something new (an id, a version, a name being stored) follows the rules
 *   below in full;
 * - a field that refers to something that may already exist (a path parameter, a download's
 *   version, a filter) accepts whatever an earlier release could have stored, so records stored
 *   before these rules stay reachable; an unknown one is then simply not found.
 */

// ---------------------------------------------------------------------------------------------
// Text
//
// Each rule is one regular expression, run by the service (with the `u` flag: a class then matches
// whole code points) and written into the API description as the field's `pattern`, and lengths are
// counted in characters (code points), as JSON Schema counts them.

/**
 * Never stored in any text: C0 and C1 controls and DEL (Unicode's Cc), the line and paragraph
 * separators U+2028 and U+2029 (line breaks to JavaScript and to many log and terminal readers), and
 * unpaired surrogates (not text; each store would silently replace them). Spelled as ranges rather
 * than \p{...} classes, which not every reader of the API description's patterns knows.
 */
const CONTROL = String.raw`\u0000-\u001F\u007F-\u009F\u2028\u2029\uD800-\uDFFF`;
/**
 * Bidirectional embeddings, overrides and isolates. Shown inline next to other values (a listing,
 * a file name with its extension, a log line), one of them reorders what follows it and can make
 * `invoice\u202Eexe.pdf` read as a PDF.
 */
const BIDI_CONTROL = String.raw`\u202A-\u202E\u2066-\u2069`;
/** What one line may hold. */
const LINE_CHARACTER = `[^${CONTROL}${BIDI_CONTROL}]`;
/** What a paragraph may hold besides CRLF: tab and LF are kept, a lone CR is refused. */
const PARAGRAPH_CHARACTER = String.raw`[^\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029\uD800-\uDFFF]`;

/** One line without control characters or bidirectional overrides. */
export const SINGLE_LINE_PATTERN = new RegExp(`^${LINE_CHARACTER}*$`, 'u');
/** One line with something besides white space: what a trimmed, non-empty line is before trimming. */
const NON_BLANK_LINE_PATTERN = new RegExp(String.raw`^${LINE_CHARACTER}*[^${CONTROL}${BIDI_CONTROL}\s]${LINE_CHARACTER}*$`, 'u');
/** Multi-line text: tab, LF and CRLF (what a browser's textarea sends), no other control character. */
export const MULTI_LINE_PATTERN = new RegExp(String.raw`^${PARAGRAPH_CHARACTER}*(?:\r\n${PARAGRAPH_CHARACTER}*)*$`, 'u');

export const isSingleLineText = (value: string): boolean => SINGLE_LINE_PATTERN.test(value);
export const isMultiLineText = (value: string): boolean => MULTI_LINE_PATTERN.test(value);

const SINGLE_LINE_MESSAGE = 'must be one line without control characters or bidirectional overrides';
const MULTI_LINE_MESSAGE = 'must not contain control characters other than tab and line breaks';

const string = () => z.string({ invalid_type_error: 'must be a string' });
const atMost = (max: number) => `must be at most ${max} characters`;

/**
 * At most `max` characters, counted in code points: the API description's maxLength, which JSON
 * Schema counts so, and what people call characters (an emoji is one, not two UTF-16 units).
 */
export const atMostCharacters = <T extends z.ZodType<string, z.ZodTypeDef, unknown>>(text: T, max: number) =>
  text.refine((value) => characterCount(value) <= max, atMost(max)).openapi({ maxLength: max });

/** A name, a tag: shown inline, so one line and no reordering; surrounding whitespace is dropped. */
const trimmedLine = (max: number) => atMostCharacters(
  string().trim().min(1, 'must not be empty').regex(SINGLE_LINE_PATTERN, SINGLE_LINE_MESSAGE),
  max,
  // Described as sent, before trimming: a line with something besides white space.
).openapi({ minLength: 1, pattern: NON_BLANK_LINE_PATTERN.source });
/** Multi-line text of at most `max` characters, line breaks and tabs kept: descriptions, notes, licences. */
export const paragraphs = (max: number) => atMostCharacters(string().regex(MULTI_LINE_PATTERN, MULTI_LINE_MESSAGE), max);

export const NAME_MAX_LENGTH = 200;
export const TAG_MAX_LENGTH = 64;
export const FILE_NAME_MAX_LENGTH = 255;
export const DESCRIPTION_MAX_LENGTH = 2_000;
export const NOTES_MAX_LENGTH = 2_000;
export const RELEASE_NOTES_MAX_LENGTH = 20_000;

/** Names of applications and customers; surrounding whitespace is dropped. */
export const nameField = trimmedLine(NAME_MAX_LENGTH);

export const YANK_REASON_MAX_LENGTH = 500;
/** Why a version is yanked: one line, as a person writes it. */
export const yankReasonField = trimmedLine(YANK_REASON_MAX_LENGTH);

export const tagField = trimmedLine(TAG_MAX_LENGTH);

/** A file name, not a path: one line without `/` or `\`, and not `.` or `..`. */
const FILE_NAME_PATTERN = new RegExp(String.raw`^(?!\.\.?$)[^${CONTROL}${BIDI_CONTROL}/\\]+$`, 'u');
export const fileNameField = atMostCharacters(
  string().min(1, 'must not be empty').regex(SINGLE_LINE_PATTERN, SINGLE_LINE_MESSAGE)
    .refine((name) => !/[/\\]/.test(name) && name !== '.' && name !== '..', 'must be a file name, without path separators'),
  FILE_NAME_MAX_LENGTH,
).openapi({ minLength: 1, pattern: FILE_NAME_PATTERN.source });

/**
 * A maintenance window's semver range (`<3`, `2.x`, `>=1.2 <2`): one line here; one that `semver` does
 * not read as a range is refused after validation, 422 INVALID_VERSION_RANGE (`requireVersionRange`).
 */
export const versionRangeField = atMostCharacters(
  string().trim().min(1, 'must not be empty; leave it out (or null) for every version').regex(SINGLE_LINE_PATTERN, SINGLE_LINE_MESSAGE),
  VERSION_RANGE_MAX_LENGTH,
).openapi({ description: 'A semver range the offered versions must satisfy (prereleases included); 422 INVALID_VERSION_RANGE when semver cannot read it', example: '<3' });

/** 422 INVALID_VERSION_RANGE for a range given that semver does not read. */
export function requireVersionRange(range: string | null | undefined): void {
  if (typeof range === 'string' && !isVersionRange(range)) throw invalidVersionRange(range);
}

/** A maintenance window's end: releases published at or after it are not offered. */
export const updatesUntilField = string()
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time with an offset (2027-01-01T00:00:00Z)' })
  .transform((value) => new Date(value))
  .openapi({ description: 'Releases published at or after this instant are not offered', example: '2027-01-01T00:00:00Z' });

export const descriptionField = paragraphs(DESCRIPTION_MAX_LENGTH);
export const notesField = paragraphs(NOTES_MAX_LENGTH);
export const releaseNotesField = paragraphs(RELEASE_NOTES_MAX_LENGTH);

/**
 * Becomes the Content-Type of downloads, so it must be a valid header value: `type/subtype` and
 * parameters, spaces or tabs only around `;`, printable ASCII inside quotes.
 */
export const contentTypeField = string()
  .max(255)
  .regex(/^[\w.+-]+\/[\w.+-]+([ \t]*;[ \t]*[\w.+-]+=("[\x20\x21\x23-\x7e]*"|[\w.+-]+))*$/, 'must be a MIME type such as application/octet-stream');

// ---------------------------------------------------------------------------------------------
// Ids and versions

/**
 * Property names of every plain JavaScript object. An id or version equal to one of them (in any
 * case) would read or replace an inherited property wherever some code, ours or a client's, keys a
 * plain object by it, so such ids are refused.
 */
export const RESERVED_WORDS: readonly string[] = [
  '__proto__', 'constructor', 'prototype',
  '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__',
  'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', 'toString', 'valueOf',
];
const RESERVED = new Set(RESERVED_WORDS.map((word) => word.toLowerCase()));
export const isReservedWord = (value: string): boolean => RESERVED.has(value.toLowerCase());
/** `word` in any case, as part of a pattern (`[Cc][Oo]...`), its other characters escaped. */
export const anyCase = (word: string): string =>
  [...word].map((c) => (/[a-z]/i.test(c) ? `[${c.toUpperCase()}${c.toLowerCase()}]` : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');
/** `words` in any case, as one pattern: what the API description says a new id must not be. */
const anyCaseOf = (words: readonly string[]) => `^(?:${words.map(anyCase).join('|')})$`;
const notReserved = <T extends z.ZodType<string>>(id: T) =>
  id.refine((value) => !isReservedWord(value), 'is a reserved word (a property name of JavaScript objects)')
    .openapi({ not: { pattern: anyCaseOf(RESERVED_WORDS) } });

export const APPLICATION_ID_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const ID_MAX_LENGTH = 64;

/** Refers to an application. */
export const applicationIdField = string()
  .max(ID_MAX_LENGTH, atMost(ID_MAX_LENGTH))
  .regex(APPLICATION_ID_PATTERN, 'must be lowercase letters and digits in words separated by single hyphens');

/** The id of a new application. */
export const newApplicationIdField = notReserved(applicationIdField);

/** Refers to a customer. Customer ids never hold '.', the separator of `<customerId>.<secret>`. */
export const customerIdField = string().regex(CUSTOMER_ID_PATTERN, 'must be 1 to 64 letters, digits, underscores or hyphens');

/** A customer named in the path: the customers' routes, and the share links and access tokens made for one. */
export const customerParams = z.object({ customerId: customerIdField });

/** The id of a new customer. */
export const newCustomerIdField = notReserved(customerIdField);

/** Ids the service generates (files, uploads): `prefix_` and base64url characters. */
export const generatedIdField = string()
  .min(1, 'must not be empty')
  .max(100, atMost(100))
  .regex(/^[A-Za-z0-9_-]+$/, 'is not an id this service issues');

export const VERSION_MAX_LENGTH = 128;

/**
 * The version grammar: 1 to 128 of the characters a URL carries unescaped (RFC 3986 "unreserved":
 * letters, digits, `.`, `_`, `~`, `-`) and `+` (SemVer build metadata), not `.` or `..` (dot
 * segments, which clients remove from paths) and not a reserved word. Every SemVer 2.0 string fits,
 * with or without a leading `v` (`v1.2.3-beta.1+build.5`), and so do `2024.01.15` and `build-812`.
 */
export const VERSION_PATTERN = /^[A-Za-z0-9._~+-]+$/;
export const newVersionField = notReserved(
  string()
    .min(1, 'must not be empty')
    .max(VERSION_MAX_LENGTH, atMost(VERSION_MAX_LENGTH))
    .regex(VERSION_PATTERN, 'must be letters, digits and . _ ~ + - only (no spaces, /, \\, %, ?, #)')
    .refine((version) => version !== '.' && version !== '..', 'must not be . or ..')
    .refine((version) => version !== LATEST_VERSION, `must not be ${LATEST_VERSION}: downloads ask for the newest version by that name`),
).openapi({ not: { pattern: `${anyCaseOf(RESERVED_WORDS)}|^(?:\\.|\\.\\.|${LATEST_VERSION})$` } });

/**
 * Refers to a version: anything earlier releases stored, which is printable ASCII without spaces
 * or '/' (so `%`, `?x` or `..` may still name an existing version, though no new one).
 */
export const versionField = string()
  .min(1, 'must not be empty')
  .max(VERSION_MAX_LENGTH, atMost(VERSION_MAX_LENGTH))
  .regex(/^[\x21-\x2e\x30-\x7e]+$/, "must be printable characters without spaces or '/'");

// ---------------------------------------------------------------------------------------------
// Choices

const oneOf = (choices: readonly string[]) => ({ errorMap: () => ({ message: `must be one of: ${choices.join(', ')}` }) });

/** A configured list of choices as zod's enum takes it (the configuration refuses an empty list). */
function asChoices(choices: readonly string[]): [string, ...string[]] {
  if (choices.length === 0) throw new Error('a list of choices must name at least one');
  return [...choices] as [string, ...string[]];
}

/** One of the configured TIERS. */
export const tierField = (tiers: readonly string[]) => z.enum(asChoices(tiers), oneOf(tiers));

// ---------------------------------------------------------------------------------------------
// Releases (shared/releases/)


export const platformField = z.enum(PLATFORMS, oneOf(PLATFORMS));
export const archField = z.enum(ARCHS, oneOf(ARCHS));
/** One of the configured CHANNELS. */
export const channelField = (channels: readonly string[]) => z.enum(asChoices(channels), oneOf(channels));

/** What a request may select a file by: a platform or arch a build is made for (`any` is what a file says when it fits every one, not a value to ask for). */
const SELECTABLE_PLATFORMS = ['windows', 'macos', 'linux'] as const;
const SELECTABLE_ARCHS = ['x64', 'arm64', 'ia32', 'armv7l', 'universal'] as const;
export const platformSelectorField = z.enum(SELECTABLE_PLATFORMS, oneOf(SELECTABLE_PLATFORMS));
export const archSelectorField = z.enum(SELECTABLE_ARCHS, oneOf(SELECTABLE_ARCHS));

/** Longer than any form of a minisign public key (the printed one is about 150 characters). */
const SIGNING_KEY_MAX_LENGTH = 1_000;

/** A minisign Ed25519 public key line: base64 of `Ed`, the key id and the key (42 bytes). */
const KEY_LINE = '(?:RW[Q-T][A-Za-z0-9+/]{53})';
/**
 * The forms `readMinisignPublicKey` reads: the key line; the `.pub` file (its comment line, then the key
 * line); base64 of the `.pub` file, as `tauri signer generate` prints it (base64 of
 * "untrusted comment:", then whatever decodes to the rest of the file).
 */
const SIGNING_KEY_PATTERN = String.raw`^\s*(?:${KEY_LINE}|untrusted comment:[^\r\n]*\r?\n\s*${KEY_LINE}(?:\s[\s\S]*)?|dW50cnVzdGVkIGNvbW1lbnQ6[A-Za-z0-9+/]*={0,2})\s*$`;

/**
 * A minisign public key: as `tauri signer generate` prints it, as the `.pub` file, or its key line.
 * Kept in the printed form, which is what Tauri's `pubkey` setting takes.
 */
export const updateSigningKeyField = atMostCharacters(string(), SIGNING_KEY_MAX_LENGTH)
  .transform((value, ctx) => {
    try {
      return readMinisignPublicKey(value).tauriForm;
    } catch (error) {
      if (!(error instanceof MinisignFormatError)) throw error;
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be a minisign public key, as `tauri signer generate` prints it' });
      return z.NEVER;
    }
  })
  .openapi({
    pattern: SIGNING_KEY_PATTERN,
    description: 'A minisign public key: its key line (RW...), the .pub file, or base64 of the .pub file as `tauri signer generate` prints it, '
      + 'which must decode to a .pub file',
  });

/** Sparkle's EdDSA public key: base64 of 32 bytes, the app's SUPublicEDKey as `generate_keys` prints it; kept in canonical base64. */
export const sparklePublicKeyField = string()
  .transform((value, ctx) => {
    try {
      return base64Text(readSparklePublicKey(value));
    } catch (error) {
      if (!(error instanceof SparkleFormatError)) throw error;
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be an EdDSA public key: base64 of 32 bytes, the SUPublicEDKey `generate_keys` prints' });
      return z.NEVER;
    }
  })
  .openapi({
    pattern: String.raw`^\s*[A-Za-z0-9+/]{43}=\s*$`,
    description: "Sparkle's EdDSA public key, the SUPublicEDKey of the app's Info.plist: base64 of 32 bytes, as `generate_keys` prints it",
  });

/** A bundle version (CFBundleVersion, which Sparkle compares): letters, digits and `.`, `_`, `+`, `-` between them. */
export const BUNDLE_VERSION_MAX_LENGTH = 64;
export const bundleVersionField = atMostCharacters(
  string().regex(/^[0-9A-Za-z](?:[0-9A-Za-z._+-]*[0-9A-Za-z])?$/, 'must be a bundle version such as 1234 or 1.2.3 (letters, digits and . _ + - between them)'),
  BUNDLE_VERSION_MAX_LENGTH,
);

/** An operating system version (`10.13`, `11.0`, `10.0.17763`): up to four dot-separated numbers. */
export const systemVersionField = string().regex(/^\d{1,5}(?:\.\d{1,6}){0,3}$/, 'must be an operating system version such as 10.13 or 11.0');

/**
 * A PATCH body that changes something: at least one field (minProperties: 1 in the API description),
 * `message` naming them.
 */
export const atLeastOneField = <T extends z.ZodTypeAny>(body: T, message: string): z.ZodEffects<T, z.output<T>, z.input<T>> =>
  body.refine((value: object) => Object.values(value).some((field) => field !== undefined), { message })
    .openapi({ minProperties: 1 }) as z.ZodEffects<T, z.output<T>, z.input<T>>;

/** An array that names each item once (uniqueItems in the API description); `message` says what is repeated. */
export const distinctItems = <T extends z.ZodArray<z.ZodTypeAny>>(array: T, message: string): z.ZodEffects<T, z.output<T>, z.input<T>> =>
  array.refine((items) => new Set(items).size === items.length, message).openapi({ uniqueItems: true }) as z.ZodEffects<T, z.output<T>, z.input<T>>;
