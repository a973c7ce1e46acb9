/**
 * A version's lifecycle. `draft`: uploaded, not shipped. `published`: offered to customers.
 * `yanked`: withdrawn after shipping (a bad build), and may be published again.
 */

export const RELEASE_STATUSES = ['draft', 'published', 'yanked'] as const;
export type ReleaseStatus = (typeof RELEASE_STATUSES)[number];

/** Uploads that name no status publish at once, as they did before versions had one. */
export const DEFAULT_UPLOAD_STATUS: ReleaseStatus = 'published';

/**
 * What an application's uploads create a version as when they name no status (its
 * `defaultVersionStatus`): a new application keeps them as drafts, so a test upload is never every
 * customer's update; applications stored before the setting existed keep publishing at once.
 */
export const NEW_APPLICATIONS_VERSION_STATUS = 'draft' as const;
export const STORED_APPLICATIONS_VERSION_STATUS = 'published' as const;

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
