import type { Application, RetiredSigningKey, SigningKeyKind } from '../store/models';

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
  return kind === 'sparkle' ? key : minisignKeyId(key);
}

const UNTRUSTED_COMMENT = 'untrusted comment:';
/** `Ed`, the 8-byte key id, the 32-byte key. */
const PUBLIC_KEY_BYTES = 42;

/**
 * A minisign public key's id, read as shared/signing/minisign.ts reads keys (base64 of the `.pub`
 * text, the text, or its key line), with no Node API: presenters run in the web apps too.
 */
function minisignKeyId(input: string): string | null {
  let text = input.trim();
  const decoded = base64Text(text);
  if (decoded?.startsWith(UNTRUSTED_COMMENT)) text = decoded;
  const lines = text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line.length > 0);
  const raw = base64Text((lines[0]?.startsWith(UNTRUSTED_COMMENT) ? lines[1] : lines[0]) ?? '');
  if (raw?.length !== PUBLIC_KEY_BYTES || !raw.startsWith('Ed')) return null;
  // Printed as a little-endian 64-bit number in hex.
  return [...raw.slice(2, 10)].reverse().map((byte) => byte.charCodeAt(0).toString(16).padStart(2, '0')).join('').toUpperCase();
}

/** The bytes of base64 text as a binary string; undefined when it is not base64. */
function base64Text(text: string): string | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return undefined;
  return atob(text);
}

/** The current key of a kind as signedUnder names it; null when the application has none. */
export function currentSigningKeyId(application: Pick<Application, 'updateSigningKey' | 'sparklePublicKey'>, kind: SigningKeyKind): string | null {
  const key = application[CURRENT_KEY_FIELD[kind]];
  return key === null ? null : signingKeyId(kind, key);
}
