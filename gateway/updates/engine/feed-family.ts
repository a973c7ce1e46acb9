import type { Arch, Platform } from '../../../shared/releases/platforms';
import type { SigningKeyKind, VersionWithFiles } from '../../../shared/store/models';
import type { Eventually } from '../../http/eventually';
import type { FileRequest, GrantedFile, OfferedRelease, ReleaseFile, ReleaseSelector } from '../../releases/release-catalog';
import type { UpdateCheckFacts } from '../update-check-recorder';
import type { RunningVersion } from '../update-schemas';

/**
 * One update client's feed: what it picks from the releases the caller is offered, and the document
 * it makes of the pick. Pure: everything it reads beside the offered list comes in `sources` and
 * `links`, so the engine (feed-answers.ts) keeps its answer and a unit test runs it on records.
 */
export interface FeedFamily<Q extends FeedRequest, P> {
  /** The releases it picks from (the catalogue's selection for the caller). */
  selector(request: Q): ReleaseSelector;
  /**
   * For a client that checks update signatures against a key built into the app: which key kind, and
   * the version the install runs. An install signed under a key the application replaced is offered
   * only releases signed under it (the catalogue's signing-key step, docs/signing-key-changes.md).
   */
  signedWith?: { kind: SigningKeyKind; running(request: Q): string | undefined };
  /** What beside the offered selection the document depends on (never the caller's identity). */
  key(request: Q, links: FeedLinks): string;
  pick(offered: readonly OfferedRelease[], request: Q, sources: FeedSources): Eventually<P>;
  document(pick: P, links: FeedLinks, request: Q): Eventually<FeedDocument>;
  /** What the check's event says of the request and its answer (the offered version is the answer's). */
  check(request: Q, answered: AnsweredFacts): UpdateCheckFacts;
}

/** What every feed request names: its application, and the version the client runs when it says. */
export interface FeedRequest {
  applicationId: string;
  running?: RunningVersion;
}

/** A feed's answer: its bytes and media type (or 204, nothing newer), and the version it offers (null: none). */
export interface FeedDocument extends AnsweredFacts {
  status?: 204;
  contentType: string;
  body: Buffer;
  /** Made for this caller alone (from a grant beside the offered selection): answered, never kept. */
  perCaller?: true;
}

/** What a check's event takes from the answer: the version offered, and the build's target when the request named none. */
export interface AnsweredFacts {
  offeredVersion: string | null;
  platform?: Platform;
  arch?: Arch;
}

/** Where a document's links lead: the caller's base (which keeps a path token) and the service's file links. */
export interface FeedLinks {
  /** The public base URL, with the caller's `/t/{token}` when it came through one. */
  base: string;
}

/** What a pick may read beside the offered list: each bound to the caller and the request's selection. */
export interface FeedSources {
  /** The release an install of a yanked `running` version is given back, if any (the catalogue's rule). */
  rollback(running: string): Eventually<OfferedRelease | null>;
  /** A SIGNATURE file's text (base64 of minisign's text). */
  signature(file: ReleaseFile): Eventually<string>;
  /** Every version of the application the catalogue holds, yanked ones too (undefined when not cached). */
  versions(): readonly VersionWithFiles[] | undefined;
  /** An exact version's file, granted as a download URL grants it (throws its refusal). */
  grant(request: FileRequest): Eventually<GrantedFile>;
}

/** The feed's file route, which answers every feed's file links. */
export const electronFeedPath = (applicationId: string): string => `/v1/updates/${applicationId}/electron`;

/**
 * A file's URL relative to the electron feed's base: `{version}/{fileName}`, each escaped, so the
 * client's `new URL(url, base)` lands on the feed's file route whatever the names hold (a `+` in a
 * version would otherwise read as a space).
 */
export const relativeFileUrl = (file: { version: string; fileName: string }): string => `${encodeURIComponent(file.version)}/${encodeURIComponent(file.fileName)}`;

/** A file's absolute link on the feed's file route, under the caller's base. */
export const fileLink = (links: FeedLinks, applicationId: string, file: { version: string; fileName: string }): string =>
  `${links.base}${electronFeedPath(applicationId)}/${relativeFileUrl(file)}`;
