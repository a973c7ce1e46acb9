import { hash } from 'node:crypto';
import { canonicalize } from '@tufjs/canonical-json';
import { Delegations } from '@tufjs/models/dist/delegations';
import { DelegatedRole } from '@tufjs/models/dist/role';
import { MetaFile, Metadata, Snapshot, TargetFile, Targets, Timestamp } from '@tufjs/models';
import { TUF_RESIGN_WHEN_LEFT } from '../policy';
import { tufKey, tufSigner, type TufKeyPair } from './keys';

/** A published file as a TUF target: its path is `{version}/{fileName}`. */
export interface TufTarget {
  version: string;
  fileName: string;
  length: number;
  /** Hex digests of the file's bytes. */
  sha256: string;
  sha512: string;
  platform: string;
  arch: string;
  channel: string;
  fileType: string;
}

/** The online keys the service signs with; the root names their public halves. */
export interface TufOnlineKeys {
  targets: TufKeyPair;
  snapshot: TufKeyPair;
  timestamp: TufKeyPair;
}

/** Lifetimes of the online roles, in seconds. */
export interface TufExpiries {
  targets: number;
  snapshot: number;
  timestamp: number;
}

/**
 * The online metadata of one repository, each document as the exact bytes served (the snapshot's and
 * the timestamp's hashes are over these bytes): `targets.json`, one delegated targets role per channel
 * (`{channel}.json`), `snapshot.json` and `timestamp.json`.
 */
export interface TufOnlineMetadata {
  targets: string;
  /** Channel name → its delegated targets role. */
  channels: Record<string, string>;
  snapshot: string;
  timestamp: string;
}

export interface SignRepositoryInput {
  /** What was signed before: versions only ever grow, and a role whose content is unchanged is kept. */
  previous?: TufOnlineMetadata;
  /** The published files; each is listed in its channel's role. */
  targets: readonly TufTarget[];
  /** Every channel, each with a delegated role (empty while it has no release). */
  channels: readonly string[];
  keys: TufOnlineKeys;
  expiries: TufExpiries;
  now: Date;
}

/** The target path of a published file. */
export function tufTargetPath(version: string, fileName: string): string {
  return `${version}/${fileName}`;
}

/**
 * Signs what changed since `previous`: a channel's role when its targets changed, the top-level
 * targets when the delegations changed, the snapshot when a targets role's version did, the timestamp
 * when the snapshot did; and any of them, unchanged, once less than TUF_RESIGN_WHEN_LEFT of its
 * lifetime is left (the timestamp's re-signing job calls this with nothing changed). Each new document
 * has the version after the previous one, so a client that saw it refuses an older one (rollback).
 */
export function signRepository(input: SignRepositoryInput): TufOnlineMetadata {
  const { previous, keys, expiries, now } = input;
  const targetsKey = tufKey(keys.targets.publicKey);

  const channels: Record<string, string> = {};
  for (const channel of input.channels) {
    const files: Record<string, TargetFile> = {};
    for (const target of input.targets) {
      if (target.channel !== channel) continue;
      const path = tufTargetPath(target.version, target.fileName);
      files[path] = new TargetFile({
        path,
        length: target.length,
        hashes: { sha256: target.sha256, sha512: target.sha512 },
        unrecognizedFields: { custom: { platform: target.platform, arch: target.arch, channel: target.channel, fileType: target.fileType } },
      });
    }
    channels[channel] = nextDocument(previous?.channels[channel], now, expiries.targets, keys.targets, (version, expires) =>
      new Targets({ version, expires, specVersion: SPEC_VERSION, targets: files }));
  }

  // A version belongs to one channel: its channel's role is delegated its paths, and the delegation is
  // terminating, so a client looking a target up reads the top-level targets and its channel's role only.
  const roles: Record<string, DelegatedRole> = {};
  for (const channel of input.channels) {
    const versions = [...new Set(input.targets.filter((target) => target.channel === channel).map((target) => target.version))].sort();
    roles[channel] = new DelegatedRole({
      name: channel,
      keyIDs: [targetsKey.keyID],
      threshold: 1,
      terminating: true,
      paths: versions.map((version) => `${escapeGlob(version)}/*`),
    });
  }
  const delegations = new Delegations({ keys: { [targetsKey.keyID]: targetsKey }, roles });
  const targets = nextDocument(previous?.targets, now, expiries.targets, keys.targets, (version, expires) =>
    new Targets({ version, expires, specVersion: SPEC_VERSION, targets: {}, delegations }));

  const meta: Record<string, MetaFile> = { 'targets.json': new MetaFile({ version: versionOf(targets) }) };
  for (const channel of input.channels) meta[`${channel}.json`] = new MetaFile({ version: versionOf(channels[channel]) });
  const snapshot = nextDocument(previous?.snapshot, now, expiries.snapshot, keys.snapshot, (version, expires) =>
    new Snapshot({ version, expires, specVersion: SPEC_VERSION, meta }));

  const snapshotMeta = new MetaFile({
    version: versionOf(snapshot),
    length: Buffer.byteLength(snapshot),
    hashes: { sha256: hash('sha256', snapshot, 'hex'), sha512: hash('sha512', snapshot, 'hex') },
  });
  const timestamp = nextDocument(previous?.timestamp, now, expiries.timestamp, keys.timestamp, (version, expires) =>
    new Timestamp({ version, expires, specVersion: SPEC_VERSION, snapshotMeta }));

  return { targets, channels, snapshot, timestamp };
}

/** The TUF specification version the metadata follows. */
export const SPEC_VERSION = '1.0.31';

type OnlineRole = Targets | Snapshot | Timestamp;

/**
 * The previous document when its content is what `make` would sign and it is not yet due for
 * re-signing; otherwise `make`'s role at the next version, signed with `key`.
 */
function nextDocument(
  previous: string | undefined,
  now: Date,
  lifetimeSeconds: number,
  key: TufKeyPair,
  make: (version: number, expires: string) => OnlineRole,
): string {
  const expires = expiryFrom(now, lifetimeSeconds);
  if (previous !== undefined) {
    const before = JSON.parse(previous) as { signed: Record<string, unknown> };
    const candidate = make(before.signed.version as number, before.signed.expires as string).toJSON();
    const unchanged = canonicalize(candidate) === canonicalize(before.signed);
    const left = Date.parse(before.signed.expires as string) - now.getTime();
    if (unchanged && left > lifetimeSeconds * 1000 * TUF_RESIGN_WHEN_LEFT) return previous;
    return signed(make((before.signed.version as number) + 1, expires), key);
  }
  return signed(make(1, expires), key);
}

function signed(role: OnlineRole, key: TufKeyPair): string {
  const metadata = new Metadata(role);
  metadata.sign(tufSigner(key), false);
  return JSON.stringify(metadata.toJSON());
}

/** The `version` of a signed document. */
export function versionOf(document: string): number {
  return (JSON.parse(document) as { signed: { version: number } }).signed.version;
}

/** An expiry as TUF writes it: UTC, whole seconds (`2030-01-01T00:00:00Z`). */
export function expiryFrom(now: Date, lifetimeSeconds: number): string {
  return new Date(Math.floor(now.getTime() / 1000) * 1000 + lifetimeSeconds * 1000).toISOString().replace('.000Z', 'Z');
}

/** A version string as a literal in a delegation's path pattern (shell-style: `*`, `?` and `[` escaped). */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (character) => `\\${character}`);
}
