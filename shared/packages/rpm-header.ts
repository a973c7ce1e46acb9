import type { Readable } from 'node:stream';
import { PACKAGE_HEADER_READ_MAX_BYTES } from '../policy';
import type { RpmDependency, RpmPackageInfo } from '../store/models';
import { PackageFormatError, readPrefix } from './read-prefix';

/**
 * An `.rpm`'s header, read as rpm writes it (rpm's file format, "Package File Format" of the LSB):
 * a 96-byte lead, the signature header (padded to 8 bytes), then the main header; each header is a
 * magic, an index of (tag, type, offset, count) entries and a data store. Only the fields repodata
 * lists are kept, and the main header's byte range (primary.xml's `rpm:header-range`).
 */
export type RpmHeaderFields = Omit<RpmPackageInfo, 'format'>;

const LEAD_BYTES = 96;
const LEAD_MAGIC = 0xedabeedb;
const HEADER_MAGIC = Buffer.from([0x8e, 0xad, 0xe8, 0x01]);
const ENTRY_BYTES = 16;

const TYPE = { INT16: 3, INT32: 4, INT64: 5, STRING: 6, BIN: 7, STRING_ARRAY: 8, I18NSTRING: 9 } as const;

const TAG = {
  NAME: 1000, VERSION: 1001, RELEASE: 1002, EPOCH: 1003, SUMMARY: 1004, DESCRIPTION: 1005, BUILDTIME: 1006, BUILDHOST: 1007,
  SIZE: 1009, VENDOR: 1011, LICENSE: 1014, PACKAGER: 1015, GROUP: 1016, URL: 1020, ARCH: 1022, SOURCERPM: 1044,
  PROVIDENAME: 1047, REQUIREFLAGS: 1048, REQUIRENAME: 1049, REQUIREVERSION: 1050, CONFLICTFLAGS: 1053, CONFLICTNAME: 1054,
  CONFLICTVERSION: 1055, CHANGELOGTIME: 1080, CHANGELOGNAME: 1081, CHANGELOGTEXT: 1082, OBSOLETENAME: 1090,
  PROVIDEFLAGS: 1112, PROVIDEVERSION: 1113, OBSOLETEFLAGS: 1114, OBSOLETEVERSION: 1115, DIRINDEXES: 1116, BASENAMES: 1117,
  DIRNAMES: 1118, LONGSIZE: 5009,
} as const;

const SENSE_LESS = 0x02;
const SENSE_GREATER = 0x04;
const SENSE_EQUAL = 0x08;
/** RPMSENSE_PREREQ, RPMSENSE_SCRIPT_PRE, RPMSENSE_SCRIPT_POST: what createrepo marks `pre="1"`. */
const SENSE_PRE = 0x40 | 0x200 | 0x400;
/** Changelog entries kept (other.xml): the newest, as createrepo keeps a few by default. */
const CHANGELOG_KEPT = 10;

type Value = string | string[] | number[] | Buffer;

interface Header {
  start: number;
  end: number;
  values: Map<number, Value>;
}

/** Reads an `.rpm`'s header fields from its first bytes; throws PackageFormatError when it is no rpm package. */
export async function readRpmHeader(body: Readable): Promise<RpmHeaderFields> {
  const bytes = await readPrefix(body, PACKAGE_HEADER_READ_MAX_BYTES, (buffer) => headersIn(buffer) !== 'need-more');
  const headers = headersIn(bytes);
  if (headers === 'need-more') throw new PackageFormatError(`the rpm header does not end within the first ${PACKAGE_HEADER_READ_MAX_BYTES} bytes`);
  return fieldsOf(headers.main);
}

function headersIn(bytes: Buffer): { main: Header } | 'need-more' {
  if (bytes.length < LEAD_BYTES) return 'need-more';
  if (bytes.readUInt32BE(0) !== LEAD_MAGIC) throw new PackageFormatError('no rpm lead');
  const signature = headerAt(bytes, LEAD_BYTES);
  if (signature === 'need-more') return signature;
  // The signature header is padded to a multiple of 8 bytes.
  const mainStart = signature.end + ((8 - (signature.end % 8)) % 8);
  const main = headerAt(bytes, mainStart);
  return main === 'need-more' ? main : { main };
}

function headerAt(bytes: Buffer, start: number): Header | 'need-more' {
  if (bytes.length < start + 16) return 'need-more';
  if (!bytes.subarray(start, start + 4).equals(HEADER_MAGIC)) throw new PackageFormatError('a malformed rpm header');
  const entries = bytes.readUInt32BE(start + 8);
  const storeBytes = bytes.readUInt32BE(start + 12);
  if (entries > 100_000 || storeBytes > PACKAGE_HEADER_READ_MAX_BYTES) throw new PackageFormatError('an rpm header too large');
  const indexStart = start + 16;
  const storeStart = indexStart + entries * ENTRY_BYTES;
  const end = storeStart + storeBytes;
  if (bytes.length < end) return 'need-more';
  const store = bytes.subarray(storeStart, end);
  const values = new Map<number, Value>();
  for (let entry = 0; entry < entries; entry += 1) {
    const at = indexStart + entry * ENTRY_BYTES;
    const tag = bytes.readUInt32BE(at);
    const type = bytes.readUInt32BE(at + 4);
    const offset = bytes.readUInt32BE(at + 8);
    const count = bytes.readUInt32BE(at + 12);
    if (offset > store.length) throw new PackageFormatError('an rpm header entry outside its store');
    const value = valueOf(store, type, offset, count);
    if (value !== undefined) values.set(tag, value);
  }
  return { start, end, values };
}

function valueOf(store: Buffer, type: number, offset: number, count: number): Value | undefined {
  const strings = (): string[] => {
    const result: string[] = [];
    let at = offset;
    for (let index = 0; index < count; index += 1) {
      const nul = store.indexOf(0, at);
      if (nul < 0) throw new PackageFormatError('an unterminated string in an rpm header');
      result.push(store.toString('utf8', at, nul));
      at = nul + 1;
    }
    return result;
  };
  const numbers = (width: number, read: (at: number) => number): number[] => {
    if (offset + count * width > store.length) throw new PackageFormatError('an rpm header entry outside its store');
    return Array.from({ length: count }, (_, index) => read(offset + index * width));
  };
  switch (type) {
    case TYPE.STRING: return strings()[0];
    case TYPE.STRING_ARRAY: return strings();
    // The first of a translated string's values is the untranslated one (C locale).
    case TYPE.I18NSTRING: return strings()[0];
    case TYPE.INT16: return numbers(2, (at) => store.readUInt16BE(at));
    case TYPE.INT32: return numbers(4, (at) => store.readUInt32BE(at));
    case TYPE.INT64: return numbers(8, (at) => Number(store.readBigUInt64BE(at)));
    case TYPE.BIN: return store.subarray(offset, offset + count);
    default: return undefined;
  }
}

function fieldsOf(header: Header): RpmHeaderFields {
  const { values } = header;
  const text = (tag: number): string | null => {
    const value = values.get(tag);
    return typeof value === 'string' ? value : null;
  };
  const list = (tag: number): string[] => {
    const value = values.get(tag);
    return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value as string[] : [];
  };
  const numbers = (tag: number): number[] => {
    const value = values.get(tag);
    return Array.isArray(value) && value.every((item) => typeof item === 'number') ? value as number[] : [];
  };
  const name = text(TAG.NAME);
  const version = text(TAG.VERSION);
  const release = text(TAG.RELEASE);
  const arch = text(TAG.ARCH);
  if (!name || !version || !release || !arch) throw new PackageFormatError('the rpm header lacks its name, version, release or arch');
  const dependencies = (names: number, flags: number, versions: number, keep: (name: string) => boolean): RpmDependency[] => {
    const flagValues = numbers(flags);
    const versionValues = list(versions);
    return list(names).map((dependency, index) => ({ dependency, flag: flagValues[index] ?? 0, evr: versionValues[index] ?? '' }))
      .filter(({ dependency }) => keep(dependency))
      .map(({ dependency, flag, evr }) => ({ name: dependency, ...senseOf(flag, evr), pre: (flag & SENSE_PRE) !== 0 }));
  };
  const dirNames = list(TAG.DIRNAMES);
  const dirIndexes = numbers(TAG.DIRINDEXES);
  const files = list(TAG.BASENAMES).map((base, index) => `${dirNames[dirIndexes[index]] ?? ''}${base}`);
  const changelogTimes = numbers(TAG.CHANGELOGTIME);
  const changelogNames = list(TAG.CHANGELOGNAME);
  const changelogTexts = list(TAG.CHANGELOGTEXT);
  return {
    name, version, release, arch,
    epoch: numbers(TAG.EPOCH)[0] ?? 0,
    summary: text(TAG.SUMMARY) ?? '',
    description: text(TAG.DESCRIPTION) ?? '',
    url: text(TAG.URL),
    license: text(TAG.LICENSE),
    vendor: text(TAG.VENDOR),
    group: text(TAG.GROUP),
    packager: text(TAG.PACKAGER),
    buildTime: numbers(TAG.BUILDTIME)[0] ?? 0,
    buildHost: text(TAG.BUILDHOST),
    sourceRpm: text(TAG.SOURCERPM),
    installedSize: numbers(TAG.LONGSIZE)[0] ?? numbers(TAG.SIZE)[0] ?? 0,
    headerStart: header.start,
    headerEnd: header.end,
    provides: dependencies(TAG.PROVIDENAME, TAG.PROVIDEFLAGS, TAG.PROVIDEVERSION, () => true),
    // rpmlib(...) requirements are rpm's own features, which createrepo leaves out too.
    requires: dependencies(TAG.REQUIRENAME, TAG.REQUIREFLAGS, TAG.REQUIREVERSION, (dependency) => !dependency.startsWith('rpmlib(')),
    conflicts: dependencies(TAG.CONFLICTNAME, TAG.CONFLICTFLAGS, TAG.CONFLICTVERSION, () => true),
    obsoletes: dependencies(TAG.OBSOLETENAME, TAG.OBSOLETEFLAGS, TAG.OBSOLETEVERSION, () => true),
    files,
    changelog: changelogTimes.slice(0, CHANGELOG_KEPT).map((date, index) => ({ date, author: changelogNames[index] ?? '', text: changelogTexts[index] ?? '' })),
  };
}

/** A dependency's comparison and its `[epoch:]version[-release]`, as repodata writes them. */
function senseOf(flag: number, evr: string): Pick<RpmDependency, 'flags' | 'epoch' | 'version' | 'release'> {
  const sense = flag & (SENSE_LESS | SENSE_GREATER | SENSE_EQUAL);
  const flags = sense === SENSE_EQUAL ? 'EQ' : sense === SENSE_LESS ? 'LT' : sense === (SENSE_LESS | SENSE_EQUAL) ? 'LE'
    : sense === SENSE_GREATER ? 'GT' : sense === (SENSE_GREATER | SENSE_EQUAL) ? 'GE' : null;
  if (!flags || !evr) return { flags: null, epoch: null, version: null, release: null };
  const colon = evr.indexOf(':');
  const epoch = colon > 0 ? evr.slice(0, colon) : '0';
  const rest = colon > 0 ? evr.slice(colon + 1) : evr;
  const dash = rest.lastIndexOf('-');
  return { flags, epoch, version: dash > 0 ? rest.slice(0, dash) : rest, release: dash > 0 ? rest.slice(dash + 1) : null };
}
