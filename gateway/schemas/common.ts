import { z } from 'zod';
import { CUSTOMER_ID_PATTERN } from '../../shared/api-keys';
import { ARCHS, PLATFORMS } from '../../shared/releases/platforms';
import { LATEST_VERSION } from '../../shared/releases/version-order';
import { MinisignFormatError, parsePublicKey } from '../../shared/signing/minisign';

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

/**
 * Never stored in any text: C0 and C1 controls and DEL (\p{Cc}), the Unicode line and paragraph
 * separators (line breaks to JavaScript and to many log and terminal readers), and unpaired
 * surrogates (not text; each store would silently replace them).
 */
const CONTROL = String.raw`\p{Cc}\p{Zl}\p{Zp}\p{Cs}`;
/**
 * Bidirectional embeddings, overrides and isolates. Shown inline next to other values (a listing,
 * a file name with its extension, a log line), one of them reorders what follows it and can make
 * `invoice\u202Eexe.pdf` read as a PDF.
 */
const BIDI_CONTROL = String.raw`\u202A-\u202E\u2066-\u2069`;

const SINGLE_LINE_REFUSED = new RegExp(`[${CONTROL}${BIDI_CONTROL}]`, 'u');
/** Multi-line text keeps tab, LF and CRLF (what a browser's textarea sends); a lone CR is refused. */
const MULTI_LINE_REFUSED = new RegExp(String.raw`\r(?!\n)|(?![\t\n\r])[${CONTROL}]`, 'u');

export const isSingleLineText = (value: string): boolean => !SINGLE_LINE_REFUSED.test(value);
export const isMultiLineText = (value: string): boolean => !MULTI_LINE_REFUSED.test(value);

const SINGLE_LINE_MESSAGE = 'must be one line without control characters or bidirectional overrides';
const MULTI_LINE_MESSAGE = 'must not contain control characters other than tab and line breaks';

const string = () => z.string({ invalid_type_error: 'must be a string' });
const atMost = (max: number) => `must be at most ${max} characters`;

/** A name, a tag, a file name: shown inline, so one line and no reordering. */
const singleLine = (text: z.ZodString) => text.refine(isSingleLineText, SINGLE_LINE_MESSAGE);
/** Descriptions and notes: paragraphs of their own, so line breaks and tabs are kept. */
const multiLine = (text: z.ZodString) => text.refine(isMultiLineText, MULTI_LINE_MESSAGE);

export const NAME_MAX_LENGTH = 200;
export const TAG_MAX_LENGTH = 64;
export const FILE_NAME_MAX_LENGTH = 255;
export const DESCRIPTION_MAX_LENGTH = 2_000;
export const NOTES_MAX_LENGTH = 2_000;
export const RELEASE_NOTES_MAX_LENGTH = 20_000;

/** Names of applications and customers; surrounding whitespace is dropped. */
export const nameField = singleLine(string().trim().min(1, 'must not be empty').max(NAME_MAX_LENGTH, atMost(NAME_MAX_LENGTH)));

export const tagField = singleLine(string().trim().min(1, 'must not be empty').max(TAG_MAX_LENGTH, atMost(TAG_MAX_LENGTH)));

/** A file name, not a path. */
export const fileNameField = singleLine(string().min(1, 'must not be empty').max(FILE_NAME_MAX_LENGTH, atMost(FILE_NAME_MAX_LENGTH)))
  .refine((name) => !/[/\\]/.test(name) && name !== '.' && name !== '..', 'must be a file name, without path separators');

export const descriptionField = multiLine(string().max(DESCRIPTION_MAX_LENGTH, atMost(DESCRIPTION_MAX_LENGTH)));
export const notesField = multiLine(string().max(NOTES_MAX_LENGTH, atMost(NOTES_MAX_LENGTH)));
export const releaseNotesField = multiLine(string().max(RELEASE_NOTES_MAX_LENGTH, atMost(RELEASE_NOTES_MAX_LENGTH)));

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
const notReserved = <T extends z.ZodType<string>>(id: T) =>
  id.refine((value) => !isReservedWord(value), 'is a reserved word (a property name of JavaScript objects)');

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
);

/**
 * Refers to a version: anything earlier releases stored, which is printable ASCII without spaces
 * or '/' (so `%`, `?x` or `..` may still name an existing version, though no new one).
 */
export const versionField = string()
  .min(1, 'must not be empty')
  .max(VERSION_MAX_LENGTH, atMost(VERSION_MAX_LENGTH))
  .regex(/^[\x21-\x2e\x30-\x7e]+$/, "must be printable characters without spaces or '/'");

// ---------------------------------------------------------------------------------------------
// Others

export const tierField = (tiers: readonly string[]) =>
  string().refine((t) => tiers.includes(t), `must be one of: ${tiers.join(', ')}`);

// ---------------------------------------------------------------------------------------------
// Releases (shared/releases/)

const oneOf = (choices: readonly string[]) => ({ errorMap: () => ({ message: `must be one of: ${choices.join(', ')}` }) });

export const platformField = z.enum(PLATFORMS, oneOf(PLATFORMS));
export const archField = z.enum(ARCHS, oneOf(ARCHS));
/** One of the configured CHANNELS. */
export const channelField = (channels: readonly string[]) =>
  string().refine((c) => channels.includes(c), `must be one of: ${channels.join(', ')}`);

/** What a request may select a file by: a platform or arch a build is made for (`any` is what a file says when it fits every one, not a value to ask for). */
const SELECTABLE_PLATFORMS = ['windows', 'macos', 'linux'] as const;
const SELECTABLE_ARCHS = ['x64', 'arm64', 'ia32', 'armv7l', 'universal'] as const;
export const platformSelectorField = z.enum(SELECTABLE_PLATFORMS, oneOf(SELECTABLE_PLATFORMS));
export const archSelectorField = z.enum(SELECTABLE_ARCHS, oneOf(SELECTABLE_ARCHS));

/** Longer than any form of a minisign public key (the printed one is about 150 characters). */
const SIGNING_KEY_MAX_LENGTH = 1_000;

/**
 * A minisign public key: as `tauri signer generate` prints it, as the `.pub` file, or its key line.
 * Kept in the printed form, which is what Tauri's `pubkey` setting takes.
 */
export const updateSigningKeyField = string()
  .max(SIGNING_KEY_MAX_LENGTH, atMost(SIGNING_KEY_MAX_LENGTH))
  .transform((value, ctx) => {
    try {
      return parsePublicKey(value).tauriForm;
    } catch (error) {
      if (!(error instanceof MinisignFormatError)) throw error;
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be a minisign public key, as `tauri signer generate` prints it' });
      return z.NEVER;
    }
  });

/** Refuses a PATCH body that changes nothing. */
export const notEmpty = (body: object) => Object.keys(body).length > 0;
