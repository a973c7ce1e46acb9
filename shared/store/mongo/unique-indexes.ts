import { DuplicateError } from '../../errors';

/**
 * Unique indexes are named after the DuplicateError target they raise, so an E11000 reply
 * (which names the violated index) maps back to the same targets the SQLite adapter uses.
 */
const PREFIX = 'unique_';

export function uniqueIndex(target: string): { unique: true; name: string } {
  return { unique: true, name: `${PREFIX}${target}` };
}

export function isDuplicateKeyError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000;
}

/** Runs a write, translating a unique-index violation into DuplicateError. */
export async function guardDuplicates<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    const index = /index: (\S+) dup key/.exec((error as Error).message)?.[1] ?? '';
    throw new DuplicateError(index.startsWith(PREFIX) ? index.slice(PREFIX.length) : 'record');
  }
}
