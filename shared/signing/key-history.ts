import type { Application, RetiredSigningKey, SigningKeyKind } from '../store/models';
import { MinisignFormatError, parsePublicKey } from './minisign';

/** The application field holding the current key of each kind. */
export const CURRENT_KEY_FIELD = { minisign: 'updateSigningKey', sparkle: 'sparklePublicKey' } as const satisfies Record<SigningKeyKind, keyof Application>;

export const SIGNING_KEY_KINDS: readonly SigningKeyKind[] = ['minisign', 'sparkle'];

/**
 * The retired keys after a change of the current keys to `next` (a field left undefined is not
 * changed): a current key replaced (or removed) is retired at `at`; a key set again becomes current
 * and leaves the retired list. Undefined when the list stays as it is.
 */
export function retiredAfterChange(
  current: Pick<Application, 'updateSigningKey' | 'sparklePublicKey' | 'retiredSigningKeys'>,
  next: { updateSigningKey?: string | null; sparklePublicKey?: string | null },
  at: Date,
): RetiredSigningKey[] | undefined {
  let retired = current.retiredSigningKeys;
  for (const kind of SIGNING_KEY_KINDS) {
    const field = CURRENT_KEY_FIELD[kind];
    const replacement = next[field];
    const before = current[field];
    if (replacement === undefined || replacement === before) continue;
    retired = retired.filter((key) => !(key.kind === kind && (key.key === replacement || key.key === before)));
    if (before !== null) retired = [...retired, { kind, key: before, keyId: signingKeyId(kind, before), retiredAt: at }];
  }
  return retired === current.retiredSigningKeys ? undefined : retired;
}

/**
 * How versions' signedUnder names a key: a minisign key by its key id (16 uppercase hex digits), a
 * Sparkle key as it is. Null for a minisign key that cannot be read.
 */
export function signingKeyId(kind: SigningKeyKind, key: string): string | null {
  if (kind === 'sparkle') return key;
  try {
    return parsePublicKey(key).keyId;
  } catch (error) {
    if (error instanceof MinisignFormatError) return null;
    throw error;
  }
}

/** The current key of a kind as signedUnder names it; null when the application has none. */
export function currentSigningKeyId(application: Pick<Application, 'updateSigningKey' | 'sparklePublicKey'>, kind: SigningKeyKind): string | null {
  const key = application[CURRENT_KEY_FIELD[kind]];
  return key === null ? null : signingKeyId(kind, key);
}
