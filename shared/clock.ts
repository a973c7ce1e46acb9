/**
 * The time as the service reads it where a rule depends on it across requests (access tokens'
 * validity and periods): one clock per process, handed to what needs it, so tests can move it.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = Object.freeze({ now: () => Date.now() });
