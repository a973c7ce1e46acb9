import { z } from 'zod';
import { REPOSITORY_KEY_IMPORT_MAX_LENGTH } from '../policy';
import { applicationIdField, atMostCharacters, channelField, FILE_NAME_MAX_LENGTH, versionField } from './fields';

/*
 * The package repositories' paths. What apt and dnf ask for is fixed by their formats; a name the
 * repository does not serve is refused here (400) or answered 404, which both clients report.
 */

const fileName = atMostCharacters(z.string().min(1, 'must not be empty'), FILE_NAME_MAX_LENGTH);

export const repositoryParams = z.object({ applicationId: applicationIdField });

export const aptSuiteParams = (channels: readonly string[]) => z.object({ applicationId: applicationIdField, channel: channelField(channels) });

/** An index's path parts: bounded only, since apt asks for compressions and architectures a suite may not have (a 404 it moves on from). */
const pathPart = atMostCharacters(z.string().min(1, 'must not be empty').regex(/^[A-Za-z0-9._-]+$/, 'must be letters, digits, . _ and - only'), 64);

export const aptIndexParams = (channels: readonly string[]) => z.object({
  applicationId: applicationIdField,
  channel: channelField(channels),
  component: pathPart,
  binary: pathPart,
  indexFile: pathPart,
});

export const aptByHashParams = (channels: readonly string[]) => z.object({
  applicationId: applicationIdField,
  channel: channelField(channels),
  component: pathPart,
  binary: pathPart,
  hash: z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA256 digest in lowercase hex'),
});

export const poolParams = z.object({ applicationId: applicationIdField, version: versionField, fileName });

export const rpmChannelParams = (channels: readonly string[]) => z.object({ applicationId: applicationIdField, channel: channelField(channels) });
export const rpmMetadataParams = (channels: readonly string[]) => z.object({ applicationId: applicationIdField, channel: channelField(channels), fileName: pathPart });
export const rpmRepoFileParams = (channels: readonly string[]) => z.object({ applicationId: applicationIdField, channel: channelField(channels), repoFile: pathPart });
export const rpmPackageParams = (channels: readonly string[]) => z.object({ applicationId: applicationIdField, channel: channelField(channels), version: versionField, fileName });

/** A JSON object body; unknown fields are refused rather than silently dropped. */
const body = <T extends z.ZodRawShape>(shape: T) => z.object(shape, { invalid_type_error: 'must be a JSON object' }).strict();

export const rotateRepositoryKeySchema = body({});

/** An armoured OpenPGP private key (a few KiB) and, when it is protected, its passphrase. */
export const importRepositoryKeySchema = body({
  privateKey: z.string().min(1, 'must not be empty').max(REPOSITORY_KEY_IMPORT_MAX_LENGTH, `must be at most ${REPOSITORY_KEY_IMPORT_MAX_LENGTH} characters`)
    .refine((text) => text.includes('-----BEGIN PGP PRIVATE KEY BLOCK-----'), 'must be an armoured OpenPGP private key'),
  passphrase: z.string().min(1, 'must not be empty').max(1024, 'must be at most 1024 characters').optional(),
});
