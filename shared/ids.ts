import { randomBytes } from 'node:crypto';

/** URL-safe random string carrying `bytes` bytes of entropy. */
export function randomToken(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

/** Prefixed, URL-safe random identifiers: 96 bits is ample for ids that are not secrets. */
export function newId(prefix: string): string {
  return `${prefix}_${randomToken(12)}`;
}

/** 64 random bits per process: ids made by different processes never collide. */
const PROCESS_TAG = randomBytes(8).toString('hex');
let sequence = 0;
/** The last event id's millisecond, and its digits with the tag. */
let prefixMs = Number.NaN;
let prefix = '';

/**
 * Time-ordered id (download events, audit entries): 12 hex digits of milliseconds, this process's tag and a counter, so sorting
 * by id follows sorting by time, and ids stay unique without a random draw per event.
 */
export function newEventId(at: Date = new Date()): string {
  sequence = (sequence + 1) % 0x1000000;
  const ms = at.getTime();
  // Events come many to a millisecond under load: its digits and the tag are formatted once.
  if (ms !== prefixMs) {
    prefixMs = ms;
    prefix = `${ms.toString(16).padStart(12, '0')}${PROCESS_TAG}`;
  }
  return prefix + (sequence | 0x1000000).toString(16).slice(1);
}

/** The last request id's millisecond, and the tag with its digits. */
let requestPrefixMs = Number.NaN;
let requestPrefix = '';

/** Unique within the process and across processes: for request ids, which need no secrecy. */
export function newRequestId(): string {
  sequence = (sequence + 1) % 0x1000000;
  const ms = Date.now();
  // Many requests to a millisecond under load: its digits and the tag are formatted once.
  if (ms !== requestPrefixMs) {
    requestPrefixMs = ms;
    requestPrefix = `${PROCESS_TAG}-${ms.toString(36)}-`;
  }
  return requestPrefix + sequence.toString(36);
}
