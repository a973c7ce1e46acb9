import type { FileRecord } from '../../shared/store/models';
import { Reply } from '../http/reply';
import type { SignedDownload } from '../../shared/contract/downloads';

/** Presents a signed download as the data of one route's answer. */
export type DownloadPresenter<T> = (signed: SignedDownload) => T;

interface SignedAnswer {
  present: DownloadPresenter<unknown>;
  lifetimeSeconds: number;
  /** The Unix second the URL was signed in. */
  second: number;
  reply: Reply<unknown>;
}

/** Answers kept per file: a download URL and share-link redirects, with room for links near their expiry. */
const ANSWERS_PER_FILE = 4;

/**
 * The download path's one cache of the answers it derives from the catalogue's file records: the
 * answer signed for a file in the current second, serialized once. Keyed by the record object the
 * catalog cache holds, so it lives exactly as long as that record: the catalog's invalidations,
 * lifetime and cap are its only eviction, and a record read afresh (a change, caches off) starts from
 * nothing.
 *
 * A signed URL is a function of its inputs and of the clock to the second, so every request for one
 * file within one second gets the same answer: one signature, one object, one serialization.
 */
export class DownloadAnswerCache {
  private readonly answers = new WeakMap<FileRecord, SignedAnswer[]>();

  /** The answer of `present` for `file`, signed in `second` for `lifetimeSeconds`, if it is here. */
  signed<T>(file: FileRecord, lifetimeSeconds: number, present: DownloadPresenter<T>, second: number): Reply<T> | undefined {
    const answers = this.answers.get(file);
    if (!answers) return undefined;
    for (const answer of answers) {
      if (answer.second === second && answer.present === present && answer.lifetimeSeconds === lifetimeSeconds) return answer.reply as Reply<T>;
    }
    return undefined;
  }

  /** Keeps the answer of `present` for a download just signed in `second`, in place of that variant's older one. */
  remember<T>(signed: SignedDownload, lifetimeSeconds: number, present: DownloadPresenter<T>, second: number): Reply<T> {
    const reply = Reply.shared(present(signed));
    let answers = this.answers.get(signed.file);
    if (!answers) {
      answers = [];
      this.answers.set(signed.file, answers);
    }
    const variant = answers.find((answer) => answer.present === present && answer.lifetimeSeconds === lifetimeSeconds);
    if (variant) {
      variant.second = second;
      variant.reply = reply;
    } else {
      if (answers.length >= ANSWERS_PER_FILE) answers.shift();
      answers.push({ present, lifetimeSeconds, second, reply });
    }
    return reply;
  }
}
