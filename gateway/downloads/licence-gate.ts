import { AppError, conflict } from '../../shared/errors';
import type { InvalidationBus } from '../../shared/cache/invalidation-bus';
import type { Application, LicenceAcceptance } from '../../shared/store/models';
import type { Store } from '../../shared/store/store';
import type { AuditRecorder } from '../http/audit-step';
import { LocalCache } from '../../shared/cache/local-cache';
import type { Eventually } from '../http/eventually';

/** Who accepts and downloads: a customer, whichever credential it came with (its key, or one of its tokens). */
export interface LicensedPrincipal {
  customerId: string;
}

/** The routes a customer reads and accepts an application's licence at. */
export const licencePath = (applicationId: string): string => `/v1/downloads/licence/${applicationId}`;
export const licenceAcceptPath = (applicationId: string): string => `${licencePath(applicationId)}/accept`;

/** Which licence an application asks for: null when it has none. */
export function currentLicence(application: Application): { text: string; revision: number } | null {
  return application.licenceText === null || application.licenceRevision === null
    ? null : { text: application.licenceText, revision: application.licenceRevision };
}

/**
 * The licence gate: a customer downloads a file of an application with a licence only once it has
 * accepted the licence's current revision. Every download the service answers for a customer passes
 * here (download URLs, latest links, share links at creation and at each use, update-feed files).
 *
 * Only acceptances are cached in process (keyed by application, customer and revision), so the
 * gate costs a map lookup once a customer has accepted. Nothing cached can be stale: an acceptance
 * is never withdrawn, a refusal is never kept (a customer that accepted on another gateway is let
 * through at its next request, read from the store), and a new revision is another key.
 */
export class LicenceGate {
  private readonly accepted: LocalCache<LicenceAcceptance>;

  constructor(private readonly store: Store, bus: InvalidationBus, private readonly audit: AuditRecorder) {
    this.accepted = new LocalCache(bus);
  }

  /** Nothing when the caller may download files of `application`; else throws 403 LICENCE_ACCEPTANCE_REQUIRED. */
  admit(principal: LicensedPrincipal, application: Application): Eventually<void> {
    const licence = currentLicence(application);
    if (!licence) return undefined;
    const key = acceptanceKey(application.applicationId, principal.customerId, licence.revision);
    if (this.accepted.get(key)) return undefined;
    return this.acceptance(application.applicationId, principal.customerId, licence.revision).then((found) => {
      if (!found) throw acceptanceRequired(application.applicationId, licence.revision);
    });
  }

  /** The caller's acceptance of the current revision, or null (also when the application has no licence). */
  async acceptanceOf(principal: LicensedPrincipal, application: Application): Promise<LicenceAcceptance | null> {
    const licence = currentLicence(application);
    return licence && this.acceptance(application.applicationId, principal.customerId, licence.revision);
  }

  /**
   * Records the caller's acceptance of `revision`, which must be the current one (409 naming it
   * otherwise, and when the application has no licence), in the store and the audit log. Accepting
   * again answers the first acceptance.
   */
  async accept(principal: LicensedPrincipal, application: Application, revision: number, clientIp: string | null, requestId: string): Promise<LicenceAcceptance> {
    const licence = currentLicence(application);
    if (!licence) throw conflict(`application ${application.applicationId} has no licence to accept`);
    if (revision !== licence.revision) {
      throw new AppError(409, 'CONFLICT', `revision ${revision} is not the current revision of the licence of ${application.applicationId}: accept revision ${licence.revision}`,
        [{ field: 'revision', message: `the current revision is ${licence.revision}` }]);
    }
    const { applicationId } = application;
    const entryId = await this.audit.open({
      actor: `customer:${principal.customerId}`, action: 'licence.accept', target: `${applicationId}/${revision}`, applicationId, requestId,
    });
    try {
      const acceptance = await this.store.applications.recordLicenceAcceptance({ applicationId, customerId: principal.customerId, revision, acceptedAt: new Date(), clientIp });
      await this.audit.close(entryId, { outcome: 'succeeded', status: 200 });
      return acceptance;
    } catch (error) {
      await this.audit.close(entryId, { outcome: 'failed', status: 503 });
      throw error;
    }
  }

  private acceptance(applicationId: string, customerId: string, revision: number): Promise<LicenceAcceptance | null> {
    return this.accepted.getOrLoad(acceptanceKey(applicationId, customerId, revision),
      () => this.store.applications.getLicenceAcceptance(applicationId, customerId, revision), [['customer', customerId]]);
  }
}

/** Application ids and customer ids hold no '/'. */
const acceptanceKey = (applicationId: string, customerId: string, revision: number) => `${applicationId}/${customerId}/${revision}`;

/** 403 saying where the licence is read and accepted, and which revision to accept. */
function acceptanceRequired(applicationId: string, revision: number): AppError {
  return new AppError(403, 'LICENCE_ACCEPTANCE_REQUIRED',
    `the licence of ${applicationId} (revision ${revision}) must be accepted before downloading: read it at GET ${licencePath(applicationId)}, `
    + `accept it with POST ${licenceAcceptPath(applicationId)} {"revision": ${revision}}`,
    [
      { field: 'revision', message: String(revision) },
      { field: 'licence', message: `GET ${licencePath(applicationId)}` },
      { field: 'accept', message: `POST ${licenceAcceptPath(applicationId)}` },
    ]);
}
