import { DEFAULT_UPLOAD_STATUS } from '../releases/lifecycle';
import { DEFAULT_ARCH, DEFAULT_PLATFORM } from '../releases/platforms';
import { DEFAULT_ROLLOUT_PERCENTAGE } from '../releases/rollout';
import type { FileRecord, UploadSession, Version } from './models';
import type { StoreOptions } from './options';
import type { NewUploadSession, VersionUpsert } from './store';

/**
 * The defaults both adapters give what a caller leaves out, so a record reads back the same from
 * either. Records stored before a field existed read with the same defaults (each adapter's
 * migration or read path).
 */

/** A file as stored: platform and arch `any`, no SHA-512 or SHA-1 and no signature problem unless given. */
export function fileWithDefaults(file: FileRecord): FileRecord {
  return {
    ...file, platform: file.platform ?? DEFAULT_PLATFORM, arch: file.arch ?? DEFAULT_ARCH, sha512: file.sha512 ?? null, sha1: file.sha1 ?? null, signatureProblem: file.signatureProblem ?? null, packageInfo: file.packageInfo ?? null,
  };
}

export function sessionWithDefaults(session: NewUploadSession): UploadSession {
  return {
    ...session,
    platform: session.platform ?? DEFAULT_PLATFORM,
    arch: session.arch ?? DEFAULT_ARCH,
    channel: session.channel ?? null,
    versionStatus: session.versionStatus ?? null,
    multipart: session.multipart ?? null,
  };
}

/** The version upsertVersion creates: what the call sets, and the defaults for the rest. */
export function newVersion(applicationId: string, version: string, upsert: VersionUpsert, at: Date, options: StoreOptions): Version {
  const status = upsert.initialStatus ?? DEFAULT_UPLOAD_STATUS;
  return {
    applicationId,
    version,
    releaseNotes: upsert.releaseNotes ?? null,
    requiredTier: upsert.requiredTier ?? null,
    channel: upsert.channel ?? upsert.initialChannel ?? options.defaultChannel,
    status,
    rolloutPercentage: upsert.rolloutPercentage ?? DEFAULT_ROLLOUT_PERCENTAGE,
    publishedAt: status === 'published' ? at : null,
    bundleVersion: upsert.bundleVersion ?? null,
    minimumSystemVersion: upsert.minimumSystemVersion ?? null,
    critical: upsert.critical ?? false,
    yankReason: null,
    rollbackTo: null,
    signedUnder: { minisign: null, sparkle: null },
    createdAt: at,
    updatedAt: at,
  };
}
