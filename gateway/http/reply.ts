import type { ErrorCode, ErrorDetail } from '../../shared/errors';
import type { StoredDocument } from './stored-document';

/** What Koa itself sets for an object body. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** The `error` of the failure envelope. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  details?: ErrorDetail[];
  /** ISO 8601: when the limit that refused the request starts again. */
  resetsAt?: string;
}

/**
 * A handler's answer when the route's declared success status is not enough: another of its declared
 * statuses, or an envelope serialized ahead of time because many requests share it (the download
 * answer every request for one file gets within one second), or an answer in the failure envelope
 * that is the route's regular result rather than a failure of the request. Handlers otherwise return
 * the data.
 */
export class Reply<T> {
  private constructor(
    /** undefined: the route's first declared status. */
    readonly status: number | undefined,
    readonly data: T,
    /** The whole envelope as sent, when serialized ahead. */
    readonly json: string | undefined,
    /** Sent in the failure envelope instead of `data`. */
    readonly error?: ErrorBody,
    /** The handler has set the status, headers and body itself: nothing is added. */
    readonly written?: boolean,
    /** A document answered outside the envelope (an update feed's), written with its validator. */
    readonly document?: StoredDocument,
  ) {}

  /** A stored document (its bytes, media type and ETag), written by the pipeline: 304 on a matching If-None-Match; frozen, so one reply serves every request. */
  static document(document: StoredDocument): Reply<never> {
    return Object.freeze(new Reply(document.status, undefined as never, undefined, undefined, false, document));
  }

  /**
   * An answer the handler has set on the context itself, outside the envelope: a 206 with part of a
   * file's bytes, which the API description declares as bytes whatever the route's JSON answers.
   */
  static written(): Reply<never> {
    return new Reply(undefined, undefined as never, undefined, undefined, true);
  }

  /** `data` in the envelope, with `status` (one the route declares). */
  static withStatus<T>(status: number, data: T): Reply<T> {
    return new Reply(status, data, undefined);
  }

  /**
   * The failure envelope with `status` as a regular answer (the readiness check's "not ready"): no
   * request failed, so nothing is logged, unlike a thrown error.
   */
  static failure(status: number, error: ErrorBody): Reply<never> {
    return new Reply(status, undefined as never, undefined, error);
  }

  /** `data` serialized into its envelope once, for every request that gets the same answer; frozen. */
  static shared<T>(data: T): Reply<T> {
    return Object.freeze(new Reply(undefined, data, JSON.stringify({ success: true, data })));
  }
}
