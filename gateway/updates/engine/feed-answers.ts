import { BoundedMap } from '../../../shared/cache/bounded-map';
import type { SigningKeyKind } from '../../../shared/store/models';
import { FEED_ANSWERS_MAX_ENTRIES } from '../../../shared/policy';
import { callerBaseUrl } from '../../http/caller-base-url';
import type { AppContext, CustomerPrincipal } from '../../http/context';
import { andThen, Eventually, isPending } from '../../http/eventually';
import { Reply } from '../../http/reply';
import { NO_CONTENT, storedDocument } from '../../http/stored-document';
import type { CatalogCache } from '../../releases/catalog-cache';
import type { OfferedRelease, ReleaseCaller, ReleaseCatalog, ReleaseSelector } from '../../releases/release-catalog';
import type { SignatureTexts } from '../signature-texts';
import type { UpdateCheckRecorder } from '../update-check-recorder';
import type { AnsweredFacts, FeedFamily, FeedLinks, FeedRequest, FeedSources } from './feed-family';

/** A kept answer: the document as written, and what the check's event takes from it. */
interface StoredAnswer extends AnsweredFacts {
  /** The reply the pipeline writes, made once. */
  reply: Reply<never>;
  perCaller?: true;
}

/**
 * The one step every update feed is answered by: the caller's offered selection from the release
 * catalogue, the family's pick and document, kept as bytes with their headers (one memo, keyed on
 * the offered selection and the request's key), the check recorded once, and a document reply the
 * pipeline writes (304 on a matching If-None-Match). A warm check answers without a promise.
 */
export class FeedAnswers {
  /** Answers by offered selection and request key. */
  private readonly memo = new BoundedMap<string, StoredAnswer>(FEED_ANSWERS_MAX_ENTRIES);
  /** An id per offered release object: the catalogue replaces them on every change, so a selection's key changes with it. */
  private readonly releaseIds = new WeakMap<OfferedRelease, string>();
  /** The key of an offered list the catalogue keeps (a selection without staged rollout): computed once. */
  private readonly listKeys = new WeakMap<readonly OfferedRelease[], string>();
  private nextId = 0;

  constructor(
    private readonly catalog: ReleaseCatalog,
    private readonly checks: UpdateCheckRecorder,
    private readonly sources: { signatures: SignatureTexts; versions: CatalogCache },
    private readonly publicBaseUrl: string,
  ) {}

  /** The family's document for the request, as the caller is offered releases; 404 (thrown) when the caller has no access. */
  answer<Q extends FeedRequest, P>(family: FeedFamily<Q, P>, ctx: AppContext, customer: CustomerPrincipal, request: Q): Eventually<Reply<never>> {
    const links: FeedLinks = { base: callerBaseUrl(this.publicBaseUrl, ctx.state) };
    const selector = family.selector(request);
    const offeredList = family.signedWith
      ? this.catalog.releasesFor(customer, selector, family.signedWith.running(request), family.signedWith.kind)
      : this.catalog.releases(customer, selector);
    return andThen(offeredList, (offered): Eventually<Reply<never>> => {
      const key = `${request.applicationId}|${this.selectionKey(offered)}|${family.key(request, links)}`;
      let answer: Eventually<StoredAnswer> | undefined = this.memo.get(key);
      if (answer === undefined) {
        answer = this.build(family, offered, request, links, this.bound(customer, selector, request.applicationId, family.signedWith?.kind));
        this.keep(key, answer);
      }
      return isPending(answer)
        ? answer.then((stored) => this.answered(family, ctx, customer, request, stored))
        : this.answered(family, ctx, customer, request, answer);
    }, undefined);
  }

  /** The check recorded (a HEAD records nothing: the recorder's rule), and the document to write. */
  private answered<Q extends FeedRequest>(family: FeedFamily<Q, unknown>, ctx: AppContext, customer: CustomerPrincipal, request: Q, stored: StoredAnswer): Reply<never> {
    this.checks.recordUpdateCheck(ctx, customer, family.check(request, stored));
    return stored.reply;
  }

  private build<Q extends FeedRequest, P>(family: FeedFamily<Q, P>, offered: readonly OfferedRelease[], request: Q, links: FeedLinks, sources: FeedSources): Eventually<StoredAnswer> {
    return andThen(family.pick(offered, request, sources), (pick) =>
      andThen(family.document(pick, links, request), (document): StoredAnswer => ({
        reply: Reply.document(document.status === 204 ? NO_CONTENT : storedDocument(document.contentType, document.body)),
        offeredVersion: document.offeredVersion,
        platform: document.platform,
        arch: document.arch,
        perCaller: document.perCaller,
      }), undefined), undefined);
  }

  /**
   * Kept once made, so later checks answer at once; a refusal or failed read (the object store down)
   * is not kept, nor an answer made for one caller. A build still waiting is not shared: it may read
   * a grant for its own caller.
   */
  private keep(key: string, answer: Eventually<StoredAnswer>): void {
    if (!isPending(answer)) {
      if (!answer.perCaller) this.memo.set(key, answer);
      return;
    }
    answer.then((value) => { if (!value.perCaller) this.memo.set(key, value); }, () => undefined);
  }

  /** What a pick reads beside the offered list, for this caller and selection (made only when an answer is built). */
  private bound(caller: ReleaseCaller, selector: ReleaseSelector, applicationId: string, signedWith: SigningKeyKind | undefined): FeedSources {
    const { signatures, versions } = this.sources;
    return {
      // A rollback target, too, must be one the install's key verifies when its updater checks signatures.
      rollback: (running) => this.catalog.rollback(caller, selector, running, signedWith),
      signature: (file) => signatures.text(file),
      versions: () => versions.cachedReleases(applicationId),
      grant: (request) => this.catalog.grant(caller, request),
    };
  }

  /** The offered selection's key: the ids of its release objects, in order. */
  private selectionKey(offered: readonly OfferedRelease[]): string {
    let key = this.listKeys.get(offered);
    if (key !== undefined) return key;
    key = '';
    for (const release of offered) {
      let id = this.releaseIds.get(release);
      if (id === undefined) {
        id = (this.nextId++).toString(36);
        this.releaseIds.set(release, id);
      }
      key = key === '' ? id : `${key},${id}`;
    }
    this.listKeys.set(offered, key);
    return key;
  }
}
