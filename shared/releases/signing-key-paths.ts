import { currentSigningKeyId } from './key-history';
import type { Application, SigningKeyKind, Version } from '../store/models';
import { isOfferedToCustomers } from './lifecycle';
import { compareVersionPrecedence } from './version-order';

type Keys = Pick<Application, 'updateSigningKey' | 'sparklePublicKey' | 'retiredSigningKeys'>;

/**
 * The key an install of `version` trusts for update signatures of `kind`, as signedUnder names keys;
 * null when no signature of that kind verified. A version signed under a key is built to trust it,
 * except a bridge release: one signed under a key after that key was retired (published at or after
 * its retirement) ships the key that replaced it, which its installs trust.
 */
export function trustedKey(keys: Keys, version: Pick<Version, 'signedUnder' | 'publishedAt'>, kind: SigningKeyKind): string | null {
  const signed = version.signedUnder[kind];
  if (signed === null) return null;
  const history = keys.retiredSigningKeys.filter((key) => key.kind === kind);
  const at = history.findIndex((key) => key.keyId === signed);
  if (at < 0 || version.publishedAt === null || version.publishedAt < history[at].retiredAt) return signed;
  const successor = history[at + 1];
  return successor ? successor.keyId : currentSigningKeyId(keys, kind);
}

/** Installs left with no path forward: those of `versions`, trusting the retired `keyId`, newer than every release signed under it. */
export interface StrandedInstalls {
  kind: SigningKeyKind;
  /** The retired key (as signedUnder names it) those installs trust. */
  keyId: string;
  /** The versions customers were given whose installs are offered nothing more, newest first. */
  versions: string[];
}

/**
 * Would the application's releases leave installs with no path forward? For each retired key, the
 * versions customers were given (published once) whose installs trust it (trustedKey) and for which
 * no published release signed under that key is newer: the signing-key step offers them only such
 * releases, so until the vendor publishes a bridge release signed with that key they stay where they
 * are. Empty when every install has a way to the current key.
 */
export function strandedInstalls(keys: Keys, versions: readonly Version[]): StrandedInstalls[] {
  const result: StrandedInstalls[] = [];
  const kinds = [...new Set(keys.retiredSigningKeys.map((key) => key.kind))];
  for (const kind of kinds) {
    const current = currentSigningKeyId(keys, kind);
    const byKey = new Map<string, string[]>();
    for (const version of versions) {
      if (version.publishedAt === null) continue;
      const trusted = trustedKey(keys, version, kind);
      if (trusted === null || trusted === current) continue;
      const newest = newestSignedUnder(versions, kind, trusted);
      if (newest !== undefined && compareVersionPrecedence(newest.version, version.version) > 0) continue;
      byKey.set(trusted, [...(byKey.get(trusted) ?? []), version.version]);
    }
    for (const [keyId, stranded] of byKey) {
      result.push({ kind, keyId, versions: stranded.sort((a, b) => compareVersionPrecedence(b, a)) });
    }
  }
  return result;
}

function newestSignedUnder(versions: readonly Version[], kind: SigningKeyKind, keyId: string): Version | undefined {
  let newest: Version | undefined;
  for (const version of versions) {
    if (!isOfferedToCustomers(version.status) || version.signedUnder[kind] !== keyId) continue;
    if (!newest || compareVersionPrecedence(version.version, newest.version) > 0) newest = version;
  }
  return newest;
}
