import { AppError, conflict, invalidRollbackTarget, notFound } from '../../shared/errors';
import { compareVersionPrecedence } from '../../shared/releases/version-order';
import type { Logger } from '../../shared/logger';
import type { FileObjects } from '../../shared/uploads/file-objects';
import { RELEASE_STATUSES, ReleaseStatus, statusChange } from '../../shared/releases/lifecycle';
import type { Application, FileRecord, Version, VersionWithFiles } from '../../shared/store/models';
import type { Store, VersionPatch } from '../../shared/store/store';
import { webhookData } from '../../shared/webhooks/events';
import type { WebhookEvents } from '../../shared/webhooks/webhook-events';
import { versionWithFiles } from '../../shared/webhooks/version-with-files';
import type { ListVersionsQuery, UpdateVersionRequest } from '../../shared/contract/versions-requests';
import type { ApplicationService } from './application-service';

/** The event a version's move to each status announces; the others announce nothing. */
const ANNOUNCED_STATUSES: Partial<Record<ReleaseStatus, 'version.published' | 'version.yanked'>> = {
  published: 'version.published',
  yanked: 'version.yanked',
};

/** What a deletion removed: the version's or the file's records, whose bytes are deleted too. */
export interface VersionRemoval {
  version: Version;
  files: FileRecord[];
}

/** What a change wrote: the version as it is now, and the status it had before. */
interface Written {
  version: Version;
  from: ReleaseStatus;
}

/**
 * Versions of an application: listing with files, and what an admin may change: tier, notes, channel,
 * rollout, and the lifecycle (publish a draft, yank, un-yank). Every change goes through the
 * application's cache hold, so every gateway's next download sees it; a change of status is
 * announced to webhooks (version.published, version.yanked) once written.
 */
export class VersionService {
  constructor(
    private readonly store: Store,
    private readonly applications: ApplicationService,
    private readonly webhooks: WebhookEvents,
    /** Deletes a deleted file's object once no other file points at it. */
    private readonly fileObjects: FileObjects,
    private readonly logger: Logger,
  ) {}

  /** The versions with their application (whose keys decide the feed problems a version lists). */
  async list(applicationId: string, filter: ListVersionsQuery = {}): Promise<{ application: Application; versions: VersionWithFiles[] }> {
    const application = await this.applications.require(applicationId);
    const versions = await this.store.versions.listVersions(applicationId, {
      channels: filter.channel === undefined ? undefined : [filter.channel],
      statuses: filter.status === undefined ? undefined : [filter.status],
    });
    return { application, versions };
  }

  async update(applicationId: string, version: string, request: UpdateVersionRequest): Promise<{ application: Application; version: VersionWithFiles }> {
    const application = await this.applications.require(applicationId);
    const { status, rolloutPlan, ...fields } = request;
    if (fields.rollbackTo !== undefined) await this.requireRollbackTarget(applicationId, version, fields.rollbackTo);
    // A plan starts at its first step's percentage.
    const given: VersionPatch = rolloutPlan ? { ...fields, rolloutPercentage: rolloutPlan.steps[0].percentage } : fields;
    // Published again, a version no longer carries the reason it was withdrawn for, nor its rollback.
    const patch: VersionPatch = status === 'published' ? { ...given, yankReason: null, rollbackTo: null } : given;
    const at = new Date();
    const announced = status && ANNOUNCED_STATUSES[status];
    const written = await this.webhooks.announceChange(
      announced ? [{ type: announced, subject: [applicationId, version], at }] : [],
      () => this.applications.change(applicationId, () => this.write(applicationId, version, status, patch, at)),
      // Announced when the status changed; a version already there is not announced again.
      async (change) => [change && change.from !== change.version.status ? webhookData.version(await versionWithFiles(this.store, change.version, [])) : null],
    );
    if (!written) throw notFound(`version ${version} of ${applicationId} not found`);
    // A percentage set by hand takes over from the version's plan, and null stops it.
    if (fields.rolloutPercentage !== undefined || rolloutPlan === null) await this.store.rolloutPlans.stopRolloutPlan(applicationId, version, at);
    if (rolloutPlan) {
      await this.store.rolloutPlans.setRolloutPlan({
        applicationId, version, plan: rolloutPlan, status: 'running', step: 0, startedAt: at, haltedAt: null, haltReason: null, updatedAt: at,
      });
    }
    const withFiles = (await this.store.versions.listVersions(applicationId)).find((v) => v.version === version);
    return { application, version: withFiles ?? { ...written.version, files: [] } };
  }

  /**
   * Deletes a draft version, its files and their bytes, and announces `version.deleted`. A published
   * or yanked version is refused (409 VERSION_PUBLISHED / VERSION_YANKED): shipped versions are yanked.
   */
  async delete(applicationId: string, version: string): Promise<VersionRemoval> {
    await this.applications.require(applicationId);
    // The version as it was is the event's data: known before the change, since the change removes it.
    const current = await this.store.versions.getVersion(applicationId, version);
    const asItWas = current && webhookData.version(await versionWithFiles(this.store, current, []));
    const deletion = await this.webhooks.announceChange(
      asItWas ? [{ type: 'version.deleted', subject: [applicationId, version], at: new Date(), data: asItWas }] : [],
      () => this.applications.change(applicationId, () => this.store.versions.deleteVersion(applicationId, version)),
      (removed) => [removed.outcome === 'deleted' ? asItWas : null],
    );
    if (deletion.outcome === 'not-found') throw notFound(`version ${version} of ${applicationId} not found`);
    if (deletion.outcome === 'not-draft') {
      throw shipped(deletion.version.status, `version ${version} is ${deletion.version.status}: only a draft can be deleted; yank a shipped version instead`);
    }
    await this.deleteBytes(deletion.files);
    return { version: deletion.version, files: deletion.files };
  }

  /**
   * Deletes one file of a version and its bytes: a failed upload's file in any version, any file of a
   * draft. A file being uploaded is refused (409), and so is a file of a published or yanked version
   * (409 VERSION_PUBLISHED / VERSION_YANKED: shipped files are immutable; yank the version).
   */
  async deleteFile(applicationId: string, version: string, fileId: string): Promise<FileRecord> {
    await this.applications.require(applicationId);
    const named = await this.store.versions.getFile(fileId);
    if (!named || named.applicationId !== applicationId || named.version !== version) {
      throw notFound(`file ${fileId} not found in version ${version} of ${applicationId}`);
    }
    const deletion = await this.applications.change(applicationId, () => this.store.versions.deleteFile(fileId));
    if (deletion.outcome === 'not-found') throw notFound(`file ${fileId} not found in version ${version} of ${applicationId}`);
    if (deletion.outcome === 'refused') {
      if (deletion.reason === 'pending') {
        throw conflict(`file ${fileId} is being uploaded: abort its upload, or wait until its verification ends`);
      }
      throw shipped(deletion.reason, `version ${version} is ${deletion.reason}: its files cannot be deleted; yank the version instead`);
    }
    await this.deleteBytes([deletion.file]);
    return deletion.file;
  }

  /**
   * Bytes whose records are gone, each object once no other file points at it (files of the same bytes
   * share one): a store that fails leaves them behind, logged, and the deletion stands.
   */
  private async deleteBytes(files: readonly FileRecord[]): Promise<void> {
    await Promise.all(files.map(async (file) => {
      try {
        await this.fileObjects.release(file);
      } catch (error) {
        this.logger.warn({ err: error, fileId: file.fileId, applicationId: file.applicationId }, 'could not delete the bytes of a deleted file; they are left in the object store');
      }
    }));
  }

  /** The fields alone, or with a status as one transition (409 when the lifecycle does not allow it); null for an unknown version. */
  /**
   * A rollback target is a published version of the application ranking below the yanked one: what
   * an install running the yanked version can be moved back to. 422 INVALID_ROLLBACK_TARGET otherwise,
   * before anything is written.
   */
  private async requireRollbackTarget(applicationId: string, yanked: string, target: string): Promise<void> {
    const found = await this.store.versions.getVersion(applicationId, target);
    if (!found || found.status !== 'published') throw invalidRollbackTarget(`rollbackTo: ${target} is no published version of ${applicationId}`);
    if (compareVersionPrecedence(target, yanked) >= 0) throw invalidRollbackTarget(`rollbackTo: ${target} does not rank below ${yanked}: a rollback goes to an earlier release`);
  }

  private async write(
    applicationId: string, version: string, status: ReleaseStatus | undefined, patch: VersionPatch, now: Date,
  ): Promise<Written | null> {
    if (status === undefined) {
      const updated = await this.store.versions.updateVersion(applicationId, version, patch, now);
      return updated && { version: updated, from: updated.status };
    }
    const transition = await this.store.versions.transitionVersion(applicationId, version, status, now, patch);
    if (transition.outcome === 'invalid-transition') {
      const allowed = RELEASE_STATUSES.filter((to) => statusChange(transition.from, to) === 'allowed');
      throw conflict(`version ${version} is ${transition.from} and cannot become ${transition.to} (from ${transition.from}: ${allowed.join(', ')})`);
    }
    return transition.outcome === 'applied' ? { version: transition.version, from: transition.from } : null;
  }
}

/** 409 naming the state of a shipped version that refuses a deletion. */
function shipped(status: ReleaseStatus, message: string): AppError {
  return new AppError(409, status === 'yanked' ? 'VERSION_YANKED' : 'VERSION_PUBLISHED', message);
}
