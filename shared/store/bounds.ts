/**
 * Bounds both store adapters hold on the counts they are given: a limit, a page and a page size are
 * whole numbers of at least 1. Requests are validated long before they reach the store, so a bad
 * value is a caller's bug: it throws a RangeError instead of reading everything (a negative SQLite
 * LIMIT has no limit) or quietly nothing.
 */
export function requireCount(name: 'limit' | 'page' | 'pageSize', value: number): void {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a whole number of at least 1, not ${value}`);
}

export function requirePage(page: number, pageSize: number): void {
  requireCount('page', page);
  requireCount('pageSize', pageSize);
}
