import { valid as validSemVer } from 'semver';
import type { Arch, Platform } from '../../../shared/releases/platforms';
import { selectMainFile } from '../../../shared/releases/platforms';
import type { OperatingSystem } from '../../../shared/releases/update-client-names';
import type { Version } from '../../../shared/store/models';
import { andThen, Eventually } from '../../http/eventually';
import type { OfferedRelease, ReleaseFile } from '../../releases/release-catalog';
import { feedDate } from '../engine/feed-dates';
import { fileLink, FeedDocument, FeedFamily, FeedRequest } from '../engine/feed-family';
import { isNewer } from '../engine/version-newer';
import type { RunningVersion } from '../update-schemas';

/**
 * Tauri's dynamic-server check: the newest signed SemVer release for the target, if newer than the
 * caller's; an install of a yanked version is offered its rollback. A caller offered no signed build
 * for its target is up to date (Tauri's updater takes any answer but 204 and a valid 200 as a failure).
 */

export interface TauriCheck extends FeedRequest {
  platform: OperatingSystem;
  arch: Arch;
  channel: string;
  running: RunningVersion;
}

/** A release a Tauri client can take: its MAIN file for the target and the SIGNATURE file of the same platform and arch, with its text. */
export interface TauriOffer {
  release: OfferedRelease;
  main: ReleaseFile;
  signature: string;
}

/** Tauri's dynamic-server answer: `signature` is the content of the `.sig` file `tauri signer sign` wrote. */
export interface TauriUpdateAnswer {
  version: string;
  url: string;
  signature: string;
  notes: string;
  pub_date: string;
}

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
const UP_TO_DATE: FeedDocument = Object.freeze({ status: 204, contentType: '', body: Buffer.alloc(0), offeredVersion: null });

export const tauriCheck: FeedFamily<TauriCheck, TauriOffer | null> = {
  selector: ({ applicationId, channel, platform, arch }) => ({ applicationId, channel, platform, arch }),
  signedWith: { kind: 'minisign', running: ({ running }) => running.version },
  // The answer's link is under the caller's base (its path token), and whether there is one depends on the running version.
  key: ({ platform, arch, running }, links) => `tauri/${platform}/${arch}/${running.orderKey}/${links.base}`,
  pick: (offered, { platform, arch, running }, sources) => {
    const offer = offered.find((release) => validSemVer(release.version.version) && signedMain(release, platform, arch));
    const main = offer && signedMain(offer, platform, arch);
    if (offer && main && isNewer(offer.version, running)) return withSignature(offer, main, sources.signature);
    // Nothing newer: an install of a yanked version is offered its rollback, which the app takes
    // when its updater's version comparator accepts an older version.
    return andThen(sources.rollback(running.version), (back): Eventually<TauriOffer | null> => {
      const files = back && validSemVer(back.version.version) ? signedMain(back, platform, arch) : null;
      return back && files ? withSignature(back, files, sources.signature) : null;
    }, undefined);
  },
  document: (offer, links, { applicationId }): FeedDocument => {
    if (!offer) return UP_TO_DATE;
    const answer = tauriUpdateAnswer(offer.release.version, fileLink(links, applicationId, offer.main), offer.signature);
    return { contentType: JSON_CONTENT_TYPE, body: Buffer.from(JSON.stringify(answer)), offeredVersion: offer.release.version.version };
  },
  check: ({ applicationId, platform, arch, channel, running }, { offeredVersion }) => ({ applicationId, client: 'tauri', platform, arch, channel, runningVersion: running.version, offeredVersion, installId: null }),
};

export function tauriUpdateAnswer(version: Version, url: string, signature: string): TauriUpdateAnswer {
  return { version: version.version, url, signature, notes: version.releaseNotes ?? '', pub_date: feedDate(version) };
}

function withSignature(release: OfferedRelease, files: { main: ReleaseFile; signature: ReleaseFile }, text: (file: ReleaseFile) => Eventually<string>): Eventually<TauriOffer> {
  return andThen(text(files.signature), (signature): TauriOffer => ({ release, main: files.main, signature }), undefined);
}

/**
 * A Tauri client verifies the download against the signature in the answer, so a release is only
 * offered with its MAIN file for the target and a SIGNATURE of the same platform and arch: the one
 * named `<main>.sig` (what `tauri signer sign` writes) when there are several.
 */
export function signedMain(release: OfferedRelease, platform: Platform, arch: Arch): { main: ReleaseFile; signature: ReleaseFile } | null {
  const mains = release.files.filter((file) => file.fileType === 'MAIN');
  const selection = selectMainFile(mains, { platform, arch });
  if (selection.kind !== 'match') return null;
  const main = selection.file;
  // A signature that no longer verifies under the application's key (signatureProblem) is no signature.
  const signatures = release.files.filter((file) => file.fileType === 'SIGNATURE' && !file.signatureProblem && file.platform === main.platform && file.arch === main.arch);
  const signature = signatures.find((file) => file.fileName === `${main.fileName}.sig`) ?? signatures[signatures.length - 1];
  return signature ? { main, signature } : null;
}
