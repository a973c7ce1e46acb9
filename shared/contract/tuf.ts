import { z } from 'zod';
import type { TufRepositoryRecord, TufRootRecord } from '../store/models';
import { iso, timestamp } from './common';

/** A public key of the application's TUF repository in TUF's form: ed25519, the raw key in hex. */
export const tufPublicKeyResponse = z.object({
  keyId: z.string(),
  /** 64 hex digits. */
  publicKey: z.string(),
});

/**
 * An application's TUF repository as `bds tuf` reads it: the service's online keys (which a root the
 * vendor signs must name for the timestamp, snapshot and targets roles), and the latest root the
 * vendor uploaded (null before `bds tuf init`). No private key ever leaves the service.
 */
export const tufRepositoryResponse = z.object({
  applicationId: z.string(),
  onlineKeys: z.object({ targets: tufPublicKeyResponse, snapshot: tufPublicKeyResponse, timestamp: tufPublicKeyResponse }),
  /** The latest root: its version, when it was uploaded, and the signed document itself. */
  root: z.object({ version: z.number().int(), uploadedAt: timestamp, document: z.record(z.unknown()) }).nullable(),
  /** Where customers read the repository, under the service's base (prefix it with `/t/{token}` for a token in the URL). */
  path: z.string(),
});

export function presentTufRepository(repository: TufRepositoryRecord, root: TufRootRecord | null): z.input<typeof tufRepositoryResponse> {
  const key = (role: 'targets' | 'snapshot' | 'timestamp') => ({ keyId: repository.keys[role].keyId, publicKey: repository.keys[role].publicKey });
  return {
    applicationId: repository.applicationId,
    onlineKeys: { targets: key('targets'), snapshot: key('snapshot'), timestamp: key('timestamp') },
    root: root ? { version: root.version, uploadedAt: iso(root.createdAt), document: JSON.parse(root.document) as Record<string, unknown> } : null,
    path: `/v1/tuf/${repository.applicationId}`,
  };
}
