import { z } from 'zod';
import { channelOffers } from '../releases/channels';
import { packageIdentity } from '../packages/package-identity';
import { repositoryPaths } from '../packages/repository-setup';
import type { RepositoryKey, RepositoryKeyRing, VersionWithFiles } from '../store/models';
import { iso, isoOrNull, timestamp } from './common';

/** A repository signing key as the console and `bds repos` show it: never its private part. */
export const repositoryKeyResponse = z.object({
  fingerprint: z.string(),
  algorithm: z.enum(['ed25519', 'rsa4096']),
  origin: z.enum(['generated', 'imported']),
  /** The armoured public key. */
  publicKey: z.string(),
  createdAt: timestamp,
  /** When it stops signing after a rotation; null for the current key. */
  retiresAt: timestamp.nullable(),
});

/** A package a repository serves: the file and what its own headers say. */
export const repositoryPackageResponse = z.object({
  format: z.enum(['deb', 'rpm']),
  version: z.string(),
  fileName: z.string(),
  fileId: z.string(),
  /** The package's name, version and arch as its control file or rpm header states them. */
  packageName: z.string(),
  packageVersion: z.string(),
  packageArch: z.string(),
  requiredTier: z.string().nullable(),
  rolloutPercentage: z.number().int(),
});

export const repositoriesResponse = z.object({
  applicationId: z.string(),
  keys: z.array(repositoryKeyResponse),
  /** Per channel, the packages of the published versions it offers (its own and the more stable channels'), newest first; tier and rollout still narrow what each customer gets. */
  channels: z.array(z.object({ channel: z.string(), packages: z.array(repositoryPackageResponse) })),
  /** Paths of the repositories under the service's base (prefix them with `/t/{token}` for a token in the URL). */
  paths: z.object({ apt: z.string(), rpm: z.string() }),
});

export function presentRepositoryKey(key: RepositoryKey): z.input<typeof repositoryKeyResponse> {
  return {
    fingerprint: key.fingerprint, algorithm: key.algorithm, origin: key.origin, publicKey: key.publicKey,
    createdAt: iso(key.createdAt), retiresAt: isoOrNull(key.retiresAt),
  };
}

/** `versions`: the application's versions newest first; only published ones with available package files are listed. */
export function presentRepositories(
  applicationId: string, ring: RepositoryKeyRing | null, versions: readonly VersionWithFiles[], channels: readonly string[],
): z.input<typeof repositoriesResponse> {
  const published = versions.filter((version) => version.status === 'published');
  return {
    applicationId,
    keys: (ring?.keys ?? []).map(presentRepositoryKey),
    channels: channels.map((channel) => ({
      channel,
      packages: published.filter((version) => channelOffers(channels, channel, version.channel)).flatMap((version) => version.files
        .filter((file) => file.status === 'available' && file.packageInfo)
        .map((file) => {
          const identity = packageIdentity(file.packageInfo!);
          return {
            format: file.packageInfo!.format, version: version.version, fileName: file.fileName, fileId: file.fileId,
            packageName: identity.name, packageVersion: identity.version, packageArch: identity.arch,
            requiredTier: version.requiredTier, rolloutPercentage: version.rolloutPercentage,
          };
        })),
    })),
    paths: repositoryPaths(applicationId),
  };
}
