import type { TokenResetPeriod } from './store/models';

/** The period an access token's counts belong to: from `start`, until `end` (null: the counts never start again). */
export interface TokenPeriod {
  start: Date;
  end: Date | null;
}

/**
 * The period that holds `now`, in UTC calendar terms: a day from midnight, a week from Monday, a month
 * from its first day. A token that never resets counts from its creation.
 */
export function tokenPeriod(resetEvery: TokenResetPeriod | null, createdAt: Date, now: number): TokenPeriod {
  if (resetEvery === null) return { start: createdAt, end: null };
  const day = new Date(now);
  const year = day.getUTCFullYear();
  const month = day.getUTCMonth();
  const date = day.getUTCDate();
  if (resetEvery === 'day') return { start: new Date(Date.UTC(year, month, date)), end: new Date(Date.UTC(year, month, date + 1)) };
  if (resetEvery === 'month') return { start: new Date(Date.UTC(year, month, 1)), end: new Date(Date.UTC(year, month + 1, 1)) };
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return { start: new Date(Date.UTC(year, month, date - sinceMonday)), end: new Date(Date.UTC(year, month, date - sinceMonday + 7)) };
}
