/** Every background job: its queue and its payload. Workers must register a processor for each. */
export const QUEUE_NAMES = ['uploads', 'share-links', 'statistics'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export interface JobPayloads {
  /** Hash a completed large upload and publish or fail it. */
  'verify-upload': { uploadId: string };
  /** Expire upload sessions past their expiresAt and delete what they left. */
  'expire-upload-sessions': Record<string, never>;
  /** Mark one share link expired at its expiresAt. */
  'expire-share-link': { tokenHash: string };
  /** Delete share links expired long enough ago. */
  'purge-share-links': Record<string, never>;
  /** Fold download events into daily counters. */
  'rollup-events': Record<string, never>;
}

export type JobName = keyof JobPayloads;

export const JOB_QUEUE: { readonly [N in JobName]: QueueName } = {
  'verify-upload': 'uploads',
  'expire-upload-sessions': 'uploads',
  'expire-share-link': 'share-links',
  'purge-share-links': 'share-links',
  'rollup-events': 'statistics',
};
