import { z } from 'zod';
import { TUF_ROOT_MAX_KEYS } from '../policy';
import { applicationIdField, atMostCharacters, FILE_NAME_MAX_LENGTH, versionField } from './fields';

/*
 * The TUF repositories' paths and the root a vendor uploads. What a TUF client asks for is fixed by
 * the specification (1.0, section 5): `root.json`, `{N}.root.json`, `timestamp.json`, `snapshot.json`,
 * `targets.json`, a delegated role's `{role}.json`; any other name is refused here (400).
 */

export const tufRepositoryParams = z.object({ applicationId: applicationIdField });

/** A metadata document's name: the top-level roles, a versioned root, or a channel's delegated targets role. */
export const tufMetadataParams = (channels: readonly string[]) => z.object({
  applicationId: applicationIdField,
  metadataFile: atMostCharacters(z.string().min(1, 'must not be empty'), 80).refine(
    (name) => metadataDocument(name, channels) !== undefined,
    `must be root.json, {N}.root.json, timestamp.json, snapshot.json, targets.json or {channel}.json (${channels.join(', ')})`,
  ),
});

/** Which document a metadata file name names, or undefined for a name the repository does not serve. */
export type TufDocumentName =
  | { kind: 'root'; version?: number }
  | { kind: 'timestamp' | 'snapshot' | 'targets' }
  | { kind: 'channel'; channel: string };

export function metadataDocument(name: string, channels: readonly string[]): TufDocumentName | undefined {
  if (name === 'root.json') return { kind: 'root' };
  if (name === 'timestamp.json' || name === 'snapshot.json' || name === 'targets.json') return { kind: name.slice(0, -'.json'.length) as 'timestamp' };
  const versioned = /^([1-9][0-9]{0,8})\.root\.json$/.exec(name);
  if (versioned) return { kind: 'root', version: Number(versioned[1]) };
  const channel = name.endsWith('.json') ? name.slice(0, -'.json'.length) : undefined;
  return channel !== undefined && channels.includes(channel) ? { kind: 'channel', channel } : undefined;
}

const fileName = atMostCharacters(z.string().min(1, 'must not be empty'), FILE_NAME_MAX_LENGTH);

/** A target's path is `{version}/{fileName}`, as `targets/{version}/{fileName}` under the repository. */
export const tufTargetParams = z.object({ applicationId: applicationIdField, version: versionField, fileName });

/** A key id or a signature: hex (ed25519 signatures are 128 digits; RSA and ECDSA ones are longer). */
const hex = (max: number) => z.string().min(1, 'must not be empty').max(max, `must be at most ${max} characters`).regex(/^[0-9a-f]+$/, 'must be lower-case hex');

/**
 * A signed root as TUF writes it: `signed` (checked by the TUF models and the root rules, a 422 when
 * wrong) and its signatures. Unknown top-level fields are refused.
 */
export const uploadTufRootSchema = z.object({
  signed: z.record(z.unknown(), { invalid_type_error: 'must be a JSON object' }),
  signatures: z.array(z.object({ keyid: hex(64), sig: hex(1024) }).strict()).min(1, 'must hold at least one signature')
    .max(TUF_ROOT_MAX_KEYS, `must hold at most ${TUF_ROOT_MAX_KEYS} signatures`),
}, { invalid_type_error: 'must be a JSON object' }).strict();
