/**
 * The one order of an application's versions, lowest first.
 *
 * 1. `semver`: strict SemVer 2.0 after one leading `v` or `V` (`1.2.3`, `v1.0.0-rc.1+build.7`), by
 *    SemVer precedence: build metadata is ignored, a prerelease sits below its release. Numbers of
 *    any size compare exactly (the `semver` package refuses a major, minor or patch past 2^53 and
 *    compares numeric prerelease identifiers past it as floats; its order is the same otherwise).
 * 2. `numeric`: 1 to 4 dot-separated numbers that are not SemVer, leading zeros and one leading
 *    `v`/`V` allowed (`10`, `1.2`, `2024.01.15`, `1.2.3.4`). They sit among SemVer versions as
 *    if padded with zeros: `1.2` ranks with `1.2.0`, `2024.01.15` with `2024.1.15`, `1.2.3.4`
 *    between `1.2.3` and `1.2.4-0`. A 4th number above zero ranks above the 3-number release.
 * 3. `free-form`: anything else (`build-812`, `nightly`, `1.2-beta`, `1.2.3.4.5`) sits below
 *    every version of the first two kinds.
 *
 * Equal precedence (`1.2.3+a` and `1.2.3+b`, `v1.2.3` and `1.2.3`, `1.2` and `1.2.0`, and any two
 * free-form versions) is decided by creation time, older first, then by the string (UTF-16 code
 * units), so the order is total and does not change as versions are added.
 */
export type VersionKind = 'semver' | 'numeric' | 'free-form';

/**
 * The version a request names to get the newest version offered to it (its channels, tier, rollout,
 * platform and arch). Never the name of a new version.
 */
export const LATEST_VERSION = 'latest';

/** What the order needs of a version record. */
export interface OrderedVersion {
  version: string;
  createdAt: Date;
}

/** Numbers beyond four components read as an identifier, not a version (Windows file versions stop at four). */
export const MAX_NUMERIC_COMPONENTS = 4;

/** The semver package's own limit; it also keeps each number's digit count within the key's 3-digit prefix. */
const MAX_ORDERED_LENGTH = 256;

/** SemVer 2.0's grammar (semver.org), numbers of any length: major, minor, patch, prerelease, build. */
const NUMBER = '0|[1-9]\\d*';
const PRERELEASE_IDENTIFIER = `(?:${NUMBER}|\\d*[A-Za-z-][0-9A-Za-z-]*)`;
const SEMVER = new RegExp(
  `^(${NUMBER})\\.(${NUMBER})\\.(${NUMBER})`
  + `(?:-(${PRERELEASE_IDENTIFIER}(?:\\.${PRERELEASE_IDENTIFIER})*))?`
  + '(?:\\+[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?$',
);
const NUMERIC_VERSION = new RegExp(`^\\d+(?:\\.\\d+){0,${MAX_NUMERIC_COMPONENTS - 1}}$`);
const DIGITS = /^\d+$/;

type Classified =
  | { kind: 'semver'; main: [string, string, string]; prerelease: string[] }
  | { kind: 'numeric'; components: string[] }
  | { kind: 'free-form' };

/** Which of the three kinds above a version string is. */
export function versionKind(version: string): VersionKind {
  return classify(version).kind;
}

/**
 * A string whose code-unit order (SQLite BINARY, MongoDB's default collation: the key is ASCII) is
 * the precedence order above: equal keys are equal precedence, to be decided by (createdAt, version).
 * Stores may keep it beside the version to sort and page in the database; the encoding is part of
 * the stored data, so changing it means recomputing every stored key.
 */
export function versionOrderKey(version: string): string {
  const parsed = classify(version);
  if (parsed.kind === 'free-form') return FREE_FORM;
  if (parsed.kind === 'numeric') {
    const [major, minor, patch, fourth] = parsed.components;
    return VERSIONED + encodeNumber(major) + encodeNumber(minor) + encodeNumber(patch) + RELEASE + encodeNumber(fourth);
  }
  const [major, minor, patch] = parsed.main;
  const head = VERSIONED + encodeNumber(major) + encodeNumber(minor) + encodeNumber(patch);
  if (parsed.prerelease.length === 0) return head + RELEASE + encodeNumber('0');
  return head + PRERELEASE + parsed.prerelease.map(encodeIdentifier).join('') + END_OF_IDENTIFIERS;
}

/** Precedence only: negative when `a` ranks below `b`, 0 when a tie (creation time would decide). */
export function compareVersionPrecedence(a: string, b: string): number {
  return compareOrderKeys(versionOrderKey(a), versionOrderKey(b));
}

/** compareVersionPrecedence on keys already computed by versionOrderKey. */
export function compareOrderKeys(a: string, b: string): number {
  return compareStrings(a, b);
}

/** The total order: precedence, then creation time, then the version string. Lowest first. */
export function compareVersions(a: OrderedVersion, b: OrderedVersion): number {
  return compareVersionPrecedence(a.version, b.version)
    || a.createdAt.getTime() - b.createdAt.getTime()
    || compareStrings(a.version, b.version);
}

/** For listings: highest version first. */
export const newestFirst = (a: OrderedVersion, b: OrderedVersion): number => compareVersions(b, a);

function classify(version: string): Classified {
  // One leading v/V only: semver itself would take "v1.2.3" but not "V1.2.3".
  const body = /^[vV]\d/.test(version) ? version.slice(1) : version;
  // semver trims whitespace; a version with any is not one of ours.
  if (!/^\d/.test(body) || body.trim() !== body || body.length > MAX_ORDERED_LENGTH) return { kind: 'free-form' };
  // Parsed here, not by the semver package: its numbers stop at 2^53, the key's digits do not.
  const semver = SEMVER.exec(body);
  if (semver) {
    const [, major, minor, patch, prerelease] = semver;
    return { kind: 'semver', main: [major, minor, patch], prerelease: prerelease === undefined ? [] : prerelease.split('.') };
  }
  if (NUMERIC_VERSION.test(body)) {
    const components = body.split('.');
    while (components.length < MAX_NUMERIC_COMPONENTS) components.push('0');
    return { kind: 'numeric', components };
  }
  return { kind: 'free-form' };
}

// Key alphabet: each marker sorts below the next, so the comparisons described above fall out of
// comparing the key strings.
const FREE_FORM = '0';
const VERSIONED = '1';
const PRERELEASE = '0';
const RELEASE = '1';
const END_OF_IDENTIFIERS = '0';
const NUMERIC_IDENTIFIER = '1';
const ALPHANUMERIC_IDENTIFIER = '2';
/** Ends an alphanumeric identifier; below every identifier character, so "alpha" < "alpha1" < "alphab". */
const END_OF_ALPHANUMERIC = '!';

/** Digits without leading zeros, prefixed by their count: longer means larger, then digit order. */
function encodeNumber(digits: string): string {
  const significant = digits.replace(/^0+(?=\d)/, '');
  return String(significant.length).padStart(3, '0') + significant;
}

/** SemVer: numeric identifiers compare numerically and below alphanumeric ones, which compare in ASCII order. */
function encodeIdentifier(identifier: string): string {
  return DIGITS.test(identifier)
    ? NUMERIC_IDENTIFIER + encodeNumber(identifier)
    : ALPHANUMERIC_IDENTIFIER + identifier + END_OF_ALPHANUMERIC;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
