import type { Job } from 'bullmq';
import { ObjectNotFoundError } from '../../shared/errors';
import type { JobPayloads } from '../../shared/queues/jobs';
import type { FileRecord } from '../../shared/store/models';
import { checkSignatureUnder, hasSigningKey, recordSignedUnder, SignatureVerdict, signingKeysOf, UpdateSigningKeys } from '../../shared/uploads/update-signature-check';
import type { WorkerDeps } from '../worker-deps';

/**
 * Checks every available SIGNATURE file of an application again under its keys (minisign's
 * update-signing key, Sparkle's public key, and the keys they replaced), as its upload was checked,
 * after a request named one; the key each verifies under is recorded on its version: a signature that no longer verifies gets
 * the reason in its `signatureProblem` and the feeds stop offering it; one that verifies again (the
 * key changed back) or that nothing checks (the key removed) loses it. Written through the
 * gateways' invalidation bus, which cache the file records. Idempotent: only what differs from the
 * stored outcome is written. A key changed again while the check ran queued a check of its own,
 * whose outcome stands: this one then writes nothing.
 */
export async function recheckUpdateSignatures(job: Job<JobPayloads['recheck-update-signatures']>, deps: WorkerDeps): Promise<string> {
  const { applicationId } = job.data;
  const signingKeys = await signingKeysOfApplication(applicationId, deps);
  if (signingKeys === undefined) return 'the application no longer exists';
  const versions = await deps.store.versions.listVersions(applicationId);
  const signatures = versions.flatMap((version) => version.files).filter((file) => file.fileType === 'SIGNATURE' && file.status === 'available');
  const changes: { file: FileRecord; problem: string | null }[] = [];
  const keysToRecord: { file: FileRecord; verdict: SignatureVerdict }[] = [];
  const signedUnder = new Map(versions.map((version) => [version.version, version.signedUnder]));
  for (const file of signatures) {
    const verdict = hasSigningKey(signingKeys) ? await verdictOf(file, signingKeys, deps) : { problem: null, signedUnder: null };
    if (verdict.problem !== (file.signatureProblem ?? null)) changes.push({ file, problem: verdict.problem });
    const recorded = verdict.signedUnder && signedUnder.get(file.version)?.[verdict.signedUnder.kind];
    if (verdict.signedUnder && recorded !== verdict.signedUnder.key) keysToRecord.push({ file, verdict });
  }
  if (!sameKeys(await signingKeysOfApplication(applicationId, deps), signingKeys)) return 'the key changed again meanwhile: left to the check that change queued';
  if (changes.length > 0 || keysToRecord.length > 0) {
    await deps.catalogChange(applicationId, async () => {
      for (const { file, problem } of changes) await deps.store.versions.setSignatureProblem(file.fileId, problem);
      for (const { file, verdict } of keysToRecord) await recordSignedUnder(deps.store, file, verdict);
    });
  }
  for (const { file, problem } of changes) {
    deps.logger.info({ applicationId, version: file.version, fileId: file.fileId, problem },
      problem ? 'update signature no longer verifies: not offered' : 'update signature verifies again');
  }
  return `${signatures.length} signatures checked, ${changes.length} changed`;
}

/** The application's keys, or undefined when the application is gone. */
async function signingKeysOfApplication(applicationId: string, deps: WorkerDeps): Promise<UpdateSigningKeys | undefined> {
  const application = await deps.store.applications.getApplication(applicationId, { includeDeleted: true });
  return application ? signingKeysOf(application) : undefined;
}

const sameKeys = (a: UpdateSigningKeys | undefined, b: UpdateSigningKeys): boolean =>
  a !== undefined && a.updateSigningKey === b.updateSigningKey && a.sparklePublicKey === b.sparklePublicKey
  && a.retiredSigningKeys.length === b.retiredSigningKeys.length;

/** Bytes that are gone verify nothing; a store that fails is retried. */
async function verdictOf(file: FileRecord, signingKeys: UpdateSigningKeys, deps: WorkerDeps): Promise<SignatureVerdict> {
  try {
    return await checkSignatureUnder(signingKeys, deps.store, deps.storage, deps.hashing, file, file.storageKey);
  } catch (error) {
    if (error instanceof ObjectNotFoundError) return { problem: `the signature could not be checked: ${error.message}`, signedUnder: null };
    throw error;
  }
}
