/** Units of time, defined once: limits in shared/policy.ts and day arithmetic everywhere are written in them. */
export const MINUTE_SECONDS = 60;
export const HOUR_SECONDS = 60 * MINUTE_SECONDS;
export const DAY_SECONDS = 24 * HOUR_SECONDS;
/** A UTC day in milliseconds: statistics, adoption and retention count whole days. */
export const DAY_MS = DAY_SECONDS * 1000;
