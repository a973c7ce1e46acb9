import type { Connection } from 'mongoose';
import { DependencyUnavailableError } from '../../errors';
import { guardPort } from '../outage-guard';
import { DEFAULT_STORE_OPTIONS, type StoreOptions } from '../options';
import type {
  AccessTokenStore, AccountStore, ActivityStore, AdoptionStore, ApplicationStore, AttestationStore, AuditStore, ShareLinkStore, RolloutPlanStore, Store, TufStore, UpdateFunnelStore, UploadStore, VersionStore,
  WebhookStore,
} from '../store';
import { MongoAccessTokens } from './access-tokens';
import { MongoAccounts } from './accounts';
import { MongoActivity } from './activity';
import { MongoAdoption } from './adoption';
import { MongoUpdateFunnel } from './update-funnel';
import { MongoRolloutPlans } from './rollout-plans';
import { MongoApplications } from './applications';
import { MongoAttestations } from './attestations';
import { MongoAudit } from './audit';
import { MongoTuf } from './tuf';
import { openConnection } from './connection';
import { bindModels } from './models';
import { MongoShareLinks } from './share-links';
import { translateUnavailable } from './unavailable';
import { MongoUploads } from './uploads';
import { MongoVersionsAndFiles } from './versions-and-files';
import { MongoWebhooks } from './webhooks';

/**
 * Production store on MongoDB (standalone or replica set; no transactions). Each port is one module
 * of this folder; this class opens and closes the connection and builds the ports once, each guarded
 * so that a database that cannot serve rejects with DependencyUnavailableError (unavailable.ts).
 */
export class MongoStore implements Store {
  readonly kind = 'mongodb' as const;
  readonly applications: ApplicationStore;
  readonly versions: VersionStore;
  readonly accounts: AccountStore;
  readonly accessTokens: AccessTokenStore;
  readonly uploads: UploadStore;
  readonly shareLinks: ShareLinkStore;
  readonly activity: ActivityStore;
  readonly adoption: AdoptionStore;
  readonly funnel: UpdateFunnelStore;
  readonly rolloutPlans: RolloutPlanStore;
  readonly webhooks: WebhookStore;
  readonly audit: AuditStore;
  readonly tuf: TufStore;
  readonly attestations: AttestationStore;

  private constructor(private readonly connection: Connection, options: StoreOptions) {
    const models = bindModels(connection);
    this.applications = guardPort(new MongoApplications(models), translateUnavailable);
    this.versions = guardPort(new MongoVersionsAndFiles(models, options), translateUnavailable);
    this.accounts = guardPort(new MongoAccounts(models), translateUnavailable);
    this.accessTokens = guardPort(new MongoAccessTokens(models), translateUnavailable);
    this.uploads = guardPort(new MongoUploads(models), translateUnavailable);
    this.shareLinks = guardPort(new MongoShareLinks(models), translateUnavailable);
    this.activity = guardPort(new MongoActivity(models, options), translateUnavailable);
    this.adoption = guardPort(new MongoAdoption(models), translateUnavailable, ['openCheckWindow']);
    this.funnel = guardPort(new MongoUpdateFunnel(models), translateUnavailable);
    this.rolloutPlans = guardPort(new MongoRolloutPlans(models), translateUnavailable);
    this.webhooks = guardPort(new MongoWebhooks(models), translateUnavailable);
    this.audit = guardPort(new MongoAudit(models), translateUnavailable);
    this.tuf = guardPort(new MongoTuf(models), translateUnavailable);
    this.attestations = guardPort(new MongoAttestations(models), translateUnavailable);
  }

  /**
   * Connects and creates the indexes the schemas declare that are missing. It drops none: an older
   * release running beside this one during a rolling deploy keeps the indexes it relies on. Obsolete
   * indexes are dropped by the migration step (index-migration.ts, `npm run migrate`), which also
   * fills in the fields documents of earlier releases lack; until then they read with their defaults.
   */
  static async connect(uri: string, options: StoreOptions = DEFAULT_STORE_OPTIONS): Promise<MongoStore> {
    const connection = await openConnection(uri).catch((error: unknown) => {
      throw translateUnavailable(error);
    });
    try {
      const store = new MongoStore(connection, options);
      for (const model of Object.values(connection.models)) await model.createIndexes();
      return store;
    } catch (error) {
      await connection.close();
      throw translateUnavailable(error);
    }
  }

  async ping(): Promise<void> {
    const db = this.connection.db;
    if (!db) throw new DependencyUnavailableError('database');
    await db.command({ ping: 1 }).catch((error: unknown) => {
      throw translateUnavailable(error);
    });
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}
