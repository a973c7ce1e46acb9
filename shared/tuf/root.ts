import { Metadata, MetadataKind, Root } from '@tufjs/models';
import { Role } from '@tufjs/models/dist/role';
import { tufKey, tufSigner, type TufKeyPair, type TufPublicKey } from './keys';
import { expiryFrom, SPEC_VERSION } from './repository';

/** The public halves of the online keys a root delegates the timestamp, snapshot and targets roles to. */
export interface TufOnlinePublicKeys {
  targets: TufPublicKey;
  snapshot: TufPublicKey;
  timestamp: TufPublicKey;
}

export interface RootDraft {
  version: number;
  /** The vendor's root keys (public halves), and how many of them must sign. */
  rootKeys: readonly TufPublicKey[];
  threshold: number;
  online: TufOnlinePublicKeys;
  expiresInSeconds: number;
  now: Date;
}

/**
 * An unsigned root: the vendor's keys for `root`, the service's online keys for the other three roles
 * (threshold 1 each). `consistent_snapshot` is false: documents are served under their plain names.
 */
export function draftRoot(draft: RootDraft): Metadata<Root> {
  if (!Number.isInteger(draft.threshold) || draft.threshold < 1 || draft.threshold > draft.rootKeys.length) {
    throw new RangeError(`a root threshold must be between 1 and its ${draft.rootKeys.length} key(s)`);
  }
  const root = new Root({ version: draft.version, expires: expiryFrom(draft.now, draft.expiresInSeconds), specVersion: SPEC_VERSION, consistentSnapshot: false });
  for (const role of ['root', 'targets', 'snapshot', 'timestamp']) {
    root.roles[role] = new Role({ keyIDs: [], threshold: role === 'root' ? draft.threshold : 1 });
  }
  for (const key of draft.rootKeys) root.addKey(tufKey(key.publicKey), 'root');
  root.addKey(tufKey(draft.online.targets.publicKey), 'targets');
  root.addKey(tufKey(draft.online.snapshot.publicKey), 'snapshot');
  root.addKey(tufKey(draft.online.timestamp.publicKey), 'timestamp');
  return new Metadata(root);
}

/** Signs a root with each of `keys` (adding to the signatures it has). */
export function signRoot(root: Metadata<Root>, keys: readonly TufKeyPair[]): Metadata<Root> {
  for (const key of keys) root.sign(tufSigner(key), true);
  return root;
}

/**
 * Root version N+1 for a rotation: the new root keys (and threshold) with the online keys of `previous`
 * unless new ones are given, signed by the previous root's keys and the new ones, so a client that
 * trusts version N accepts it and trusts only the new keys afterwards (specification 1.0, 5.3.4).
 */
export function rotateRoot(options: {
  previous: Metadata<Root>;
  previousKeys: readonly TufKeyPair[];
  newKeys: readonly TufKeyPair[];
  threshold: number;
  online?: TufOnlinePublicKeys;
  expiresInSeconds: number;
  now: Date;
}): Metadata<Root> {
  const { previous } = options;
  const onlineOf = (role: string): TufPublicKey => {
    const keyId = previous.signed.roles[role].keyIDs[0];
    return { keyId, publicKey: previous.signed.keys[keyId].keyVal.public };
  };
  const next = draftRoot({
    version: previous.signed.version + 1,
    rootKeys: options.newKeys,
    threshold: options.threshold,
    online: options.online ?? { targets: onlineOf('targets'), snapshot: onlineOf('snapshot'), timestamp: onlineOf('timestamp') },
    expiresInSeconds: options.expiresInSeconds,
    now: options.now,
  });
  const signers = new Map<string, TufKeyPair>();
  for (const key of [...options.previousKeys, ...options.newKeys]) signers.set(key.keyId, key);
  return signRoot(next, [...signers.values()]);
}

/**
 * Checks a root the vendor uploads before the service keeps it: well-formed TUF, the next version,
 * signed by a threshold of its own root keys and (from version 2) of the previous root's, and naming the
 * service's online keys for the other roles. Throws an Error saying what is wrong.
 */
export function checkUploadedRoot(candidate: unknown, previous: Metadata<Root> | undefined, online: TufOnlinePublicKeys): Metadata<Root> {
  let root: Metadata<Root>;
  try {
    root = Metadata.fromJSON(MetadataKind.Root, candidate as never);
  } catch (error) {
    throw new Error(`not a TUF root: ${(error as Error).message}`);
  }
  const expected = (previous?.signed.version ?? 0) + 1;
  if (root.signed.version !== expected) throw new Error(`the root's version must be ${expected}`);
  if (root.signed.consistentSnapshot) throw new Error('consistent_snapshot must be false');
  for (const role of ['targets', 'snapshot', 'timestamp'] as const) {
    const keyIds = root.signed.roles[role]?.keyIDs ?? [];
    if (keyIds.length !== 1 || keyIds[0] !== online[role].keyId) throw new Error(`the ${role} role must name the service's online ${role} key`);
  }
  try {
    if (previous) previous.verifyDelegate('root', root);
    root.verifyDelegate('root', root);
  } catch (error) {
    throw new Error(`the root's signatures do not verify: ${(error as Error).message}`);
  }
  return root;
}
