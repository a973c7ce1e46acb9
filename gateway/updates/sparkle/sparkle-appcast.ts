import { XMLBuilder } from 'fast-xml-parser';
import { releaseNotesHtmlOf } from '../../../shared/contract/versions';
import type { FileRecord, Version } from '../../../shared/store/models';

/**
 * Sparkle's appcast (RSS 2.0 in Sparkle's namespace), as Sparkle, WinSparkle and NetSparkle read it.
 * Element and attribute names are Sparkle's (Sparkle/SUConstants.m). Built by fast-xml-parser's
 * XMLBuilder, which escapes every text and attribute value (and splits a `]]>` in CDATA): no
 * vendor's text is concatenated into markup. A pure function of records and links.
 */

export const SPARKLE_NAMESPACE = 'http://www.andymatuschak.org/xml-namespaces/sparkle';

/** The operating systems an appcast is made for: `sparkle:os` says `windows` to WinSparkle and NetSparkle; macOS is Sparkle's default. */
export const APPCAST_SYSTEMS = ['macos', 'windows'] as const;
export type AppcastSystem = (typeof APPCAST_SYSTEMS)[number];

/** One signed archive and where the client fetches it. */
export interface AppcastFile {
  file: FileRecord;
  url: string;
  /** Base64 of the 64-byte Ed25519 signature over the file's bytes. */
  edSignature: string;
}

/** One `<item>`: a release's archive, and its deltas with the bundle version each updates from. */
export interface AppcastItem {
  version: Version;
  archive: AppcastFile;
  deltas: readonly (AppcastFile & { deltaFrom: string })[];
}

export interface AppcastChannel {
  title: string;
  link: string;
  description: string;
}

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', cdataPropName: '#cdata', suppressEmptyNode: true });

/** Characters XML 1.0 cannot carry (C0 controls but tab and line breaks, lone surrogates, U+FFFE/U+FFFF): dropped, else no parser reads the feed. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const xmlText = (text: string): string => text.replace(NOT_XML, '');

/** The bundle version Sparkle compares: the vendor's, else the version string. */
export const bundleVersionOf = (version: Version): string => version.bundleVersion ?? version.version;

/** RFC 822 (RSS 2.0's pubDate), in GMT. */
const rfc822 = (date: Date): string => date.toUTCString();

const notesXml = new WeakMap<Version, string>();

/** The release notes as the contract renders them (sanitized HTML), made XML-safe once per version record. */
function releaseNotesHtml(version: Version): string | undefined {
  const html = releaseNotesHtmlOf(version);
  if (html === null) return undefined;
  let text = notesXml.get(version);
  if (text === undefined) {
    text = xmlText(html);
    notesXml.set(version, text);
  }
  return text;
}

function enclosure(archive: AppcastFile, version: Version, system: AppcastSystem): Record<string, string | number> {
  const attributes: Record<string, string | number> = {
    '@_url': archive.url,
    // Also on the enclosure: WinSparkle and Sparkle 1 read the versions there.
    '@_sparkle:version': xmlText(bundleVersionOf(version)),
    '@_sparkle:shortVersionString': xmlText(version.version),
    '@_length': archive.file.fileSize,
    '@_type': 'application/octet-stream',
    '@_sparkle:edSignature': archive.edSignature,
  };
  if (system === 'windows') attributes['@_sparkle:os'] = 'windows';
  return attributes;
}

function item(entry: AppcastItem, system: AppcastSystem): Record<string, unknown> {
  const { version } = entry;
  const element: Record<string, unknown> = {
    title: xmlText(`Version ${version.version}`),
    pubDate: rfc822(version.publishedAt ?? version.createdAt),
    'sparkle:version': xmlText(bundleVersionOf(version)),
    'sparkle:shortVersionString': xmlText(version.version),
  };
  if (version.minimumSystemVersion !== null) element['sparkle:minimumSystemVersion'] = version.minimumSystemVersion;
  if (version.critical) element['sparkle:criticalUpdate'] = '';
  const notes = releaseNotesHtml(version);
  if (notes !== undefined) element.description = { '#cdata': notes };
  element.enclosure = enclosure(entry.archive, version, system);
  if (entry.deltas.length > 0) {
    element['sparkle:deltas'] = {
      enclosure: entry.deltas.map((delta) => ({ ...enclosure(delta, version, system), '@_sparkle:deltaFrom': xmlText(delta.deltaFrom) })),
    };
  }
  return element;
}

/** The appcast's bytes: newest item first; no item (nothing newer to offer) is a valid feed Sparkle reads as "up to date". */
export function sparkleAppcast(channel: AppcastChannel, items: readonly AppcastItem[], system: AppcastSystem): Buffer {
  const document = {
    '?xml': { '@_version': '1.0', '@_encoding': 'utf-8' },
    rss: {
      '@_version': '2.0',
      '@_xmlns:sparkle': SPARKLE_NAMESPACE,
      channel: {
        title: xmlText(channel.title),
        link: channel.link,
        description: xmlText(channel.description),
        item: items.map((entry) => item(entry, system)),
      },
    },
  };
  return Buffer.from(builder.build(document));
}
