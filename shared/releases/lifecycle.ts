/**
 * A version's lifecycle. `draft`: uploaded, not shipped. `published`: offered to customers.
 * `yanked`: withdrawn after shipping (a bad build), and may be published again.
 */

export const RELEASE_STATUSES = ['draft', 'published', 'yanked'] as const;
export type ReleaseStatus = (typeof RELEASE_STATUSES)[number];

/**
 * What an upload that names no status creates its version as, unless its application says otherwise
 * (`defaultVersionStatus`): published at once, as the original interface describes. It is also what
 * a new application's `defaultVersionStatus` is when its creation names none, and what an application
 * stored before that field existed reads (MongoDB fills it in on read until `npm run migrate` writes
 * it; SQLite's migration wrote it). An application stored with `draft` keeps `draft`.
 */
export const DEFAULT_UPLOAD_STATUS = 'published' as const satisfies ReleaseStatus;

export const isReleaseStatus = (value: string): value is ReleaseStatus => (RELEASE_STATUSES as readonly string[]).includes(value);

/** Publishing, yanking and un-yanking. Nothing returns to draft: a shipped build cannot become unshipped. */
const TRANSITIONS: Readonly<Record<ReleaseStatus, readonly ReleaseStatus[]>> = {
  draft: ['published'],
  published: ['yanked'],
  yanked: ['published'],
};

/**
 * `unchanged` when the status stays (a PATCH repeating the status with other fields is not a
 * transition), `allowed` or `invalid` (409).
 */
export function statusChange(from: ReleaseStatus, to: ReleaseStatus): 'unchanged' | 'allowed' | 'invalid' {
  if (from === to) return 'unchanged';
  return TRANSITIONS[from].includes(to) ? 'allowed' : 'invalid';
}

/** `publishedAt` is when the version first became published: set once, kept through yank and un-yank. */
export function publishedAtAfter(publishedAt: Date | null, to: ReleaseStatus, now: Date): Date | null {
  return publishedAt ?? (to === 'published' ? now : null);
}

/**
 * What a customer naming this version exactly (download URL, share link, its use) is answered:
 * a draft does not exist for them (404), a yanked version is gone (410).
 */
export function customerAnswerFor(status: ReleaseStatus): 'available' | 'not-found' | 'gone' {
  return status === 'published' ? 'available' : status === 'draft' ? 'not-found' : 'gone';
}

/** Whether customers are offered the version at all: as "latest", in release listings and in update feeds. */
export const isOfferedToCustomers = (status: ReleaseStatus): boolean => status === 'published';
