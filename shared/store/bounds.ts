import { isRolloutPercentage } from '../releases/rollout';

/**
 * Bounds both store adapters hold on the numbers they are given: a limit, a page and a page size are
 * whole numbers of at least 1, a rollout percentage one from 1 to 100. Requests are validated long
 * before they reach the store, so a bad value is a caller's bug: it throws a RangeError instead of
 * reading everything (a negative SQLite LIMIT has no limit), quietly nothing, or storing a rollout
 * no customer could be inside.
 */
export function requireCount(name: 'limit' | 'page' | 'pageSize' | 'capacity', value: number): void {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a whole number of at least 1, not ${value}`);
}

export function requirePage(page: number, pageSize: number): void {
  requireCount('page', page);
  requireCount('pageSize', pageSize);
}

/** A rollout percentage, when a patch sets one, is a whole number from 1 to 100. */
export function requireRolloutPercentage(value: number | undefined): void {
  if (value !== undefined && !isRolloutPercentage(value)) throw new RangeError(`rolloutPercentage must be a whole number from 1 to 100, not ${value}`);
}
