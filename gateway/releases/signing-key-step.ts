import type { OfferedRelease } from '../../shared/contract/releases';
import { trustedKey } from '../../shared/releases/signing-key-paths';
import { currentSigningKeyId } from '../../shared/releases/key-history';
import type { Application, SigningKeyKind, Version } from '../../shared/store/models';

/**
 * The catalogue's signing-key step: an install trusts the update key built into the version it runs
 * (shared/releases/signing-key-paths.ts: the key it was signed under, or for a bridge release the
 * key that replaced that one). When that key is one the application has since replaced,
 * the install is offered only releases signed under that same key (the vendor's bridge release,
 * signed with the old key and shipping the new one), newest first as the catalogue offers them; none
 * when there is no such release, so it stays up to date rather than being offered one its updater
 * would reject. An install trusting the current key is offered what everyone is but releases signed
 * under another key (a bridge, or one signed before a key changed back), which it would reject too. An
 * install of a version not known, or with no key recorded, is offered what everyone is. Only the feeds whose clients check these signatures ask
 * (Tauri: minisign; Sparkle: its EdDSA key).
 */
export class SigningKeyStep {
  /** Per offered list, by kind and key: the cut, kept as long as the list (dropped with the catalogue's records). */
  private readonly cuts = new WeakMap<readonly OfferedRelease[], Map<string, readonly OfferedRelease[]>>();
  /** Per application record, its current key ids (a minisign key is parsed once per record). */
  private readonly currentKeys = new WeakMap<Application, Map<SigningKeyKind, string | null>>();

  /** The releases offered to an install running `running`, whose updater checks signatures of `kind`. */
  offered(application: Application, running: Version | undefined, kind: SigningKeyKind, offered: readonly OfferedRelease[]): readonly OfferedRelease[] {
    const trusted = running ? trustedKey(application, running, kind) : null;
    if (trusted === null) return offered;
    const current = trusted === this.current(application, kind);
    let byKey = this.cuts.get(offered);
    if (!byKey) {
      byKey = new Map();
      this.cuts.set(offered, byKey);
    }
    const cacheKey = `${kind}:${trusted}`;
    let cut = byKey.get(cacheKey);
    if (!cut) {
      // Under the current key, releases with no key recorded (stored before keys were) are kept.
      const kept = offered.filter((release) => (release.version.signedUnder[kind] ?? (current ? trusted : null)) === trusted);
      // Nothing left out: the list itself, so what feeds derive from it is shared with every caller.
      cut = kept.length === offered.length ? offered : Object.freeze(kept);
      byKey.set(cacheKey, cut);
    }
    return cut;
  }

  private current(application: Application, kind: SigningKeyKind): string | null {
    let keys = this.currentKeys.get(application);
    if (!keys) {
      keys = new Map();
      this.currentKeys.set(application, keys);
    }
    let key = keys.get(kind);
    if (key === undefined) {
      key = currentSigningKeyId(application, kind);
      keys.set(kind, key);
    }
    return key;
  }
}
