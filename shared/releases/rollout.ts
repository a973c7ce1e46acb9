import { hash } from 'node:crypto';
import { MAX_ROLLOUT_PERCENTAGE, MIN_ROLLOUT_PERCENTAGE } from '../policy';

/**
 * Staged rollout: a published version offered as "latest" to a share of customers only. Each
 * customer has a fixed bucket 0-99 per (application, version), and is inside the rollout when the
 * bucket is below the percentage: raising the percentage only adds customers, and every gateway
 * and both stores agree without storing anything. Each version draws its own buckets, so the same
 * customers are not always the first to get a build.
 */

/** A version without a rollout percentage is offered to everyone. */
export const DEFAULT_ROLLOUT_PERCENTAGE = MAX_ROLLOUT_PERCENTAGE;

export function isRolloutPercentage(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= MIN_ROLLOUT_PERCENTAGE && (value as number) <= MAX_ROLLOUT_PERCENTAGE;
}

/**
 * The customer's bucket, 0 to 99: the first 32 bits of SHA-256 over the three values, scaled.
 * NUL separates them (no id or version holds one), so ("a-b", "c") and ("a", "b-c") differ.
 * Part of the product's behaviour: changing it reshuffles who is inside every running rollout.
 */
export function rolloutBucket(customerId: string, applicationId: string, version: string): number {
  // The one-shot form: latest-version resolution asks this once per candidate version.
  const digest = hash('sha256', `${customerId}\0${applicationId}\0${version}`, 'buffer');
  return Math.floor((digest.readUInt32BE(0) * 100) / 2 ** 32);
}

export function isInRollout(customerId: string, applicationId: string, version: string, percentage: number): boolean {
  return percentage >= MAX_ROLLOUT_PERCENTAGE || rolloutBucket(customerId, applicationId, version) < percentage;
}
