import { randomBytes } from 'node:crypto';

/** URL-safe random string carrying `bytes` bytes of entropy. */
export function randomToken(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

/** Prefixed, URL-safe random identifiers: 96 bits is ample for ids that are not secrets. */
export function newId(prefix: string): string {
  return `${prefix}_${randomToken(12)}`;
}

/**
 * Time-ordered event id: 12 hex digits of milliseconds then 64 random bits, so sorting by id follows
 * sorting by time and two events of the same millisecond still get distinct ids.
 */
export function newEventId(at: Date = new Date()): string {
  return `${at.getTime().toString(16).padStart(12, '0')}${randomBytes(8).toString('hex')}`;
}
