import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { guardPort } from '../outage-guard';
import type {
  AccessTokenStore, AccountStore, ActivityStore, AdoptionStore, ApplicationStore, AttestationStore, AuditStore, ShareLinkStore, RolloutPlanStore, Store, TufStore, UpdateFunnelStore, UploadStore, VersionStore,
  WebhookStore,
} from '../store';
import { DEFAULT_STORE_OPTIONS, type StoreOptions } from '../options';
import { SqliteAccounts } from './accounts';
import { SqliteAccessTokens } from './access-tokens';
import { SqliteActivity } from './activity';
import { SqliteAdoption } from './adoption';
import { SqliteUpdateFunnel } from './update-funnel';
import { SqliteRolloutPlans } from './rollout-plans';
import { SqliteApplications } from './applications';
import { SqliteAttestations } from './attestations';
import { SqliteAudit } from './audit';
import { SqliteTuf } from './tuf';
import { BackgroundWriter } from './background-writer';
import { applyConnectionSettings } from './connection';
import { SqliteDatabase } from './database';
import { migrateSchema } from './schema';
import { SqliteShareLinks } from './share-links';
import { translateUnavailable } from './unavailable';
import { SqliteUploads } from './uploads';
import { SqliteVersionsAndFiles } from './versions-and-files';
import { SqliteWebhooks } from './webhooks';

/**
 * Embedded store on SQLite (better-sqlite3). WAL lets a web and a worker process share the file;
 * busy_timeout makes a writer wait for the other instead of failing. Each port is one module of this
 * folder; this class opens and closes the file and builds the ports once, each guarded so that a file
 * that cannot serve rejects with DependencyUnavailableError (unavailable.ts).
 */
export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
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
  private readonly db: Database.Database;
  /** Event writes, folds and checkpoints, off the event loop. */
  private readonly background: BackgroundWriter;
  private readonly database: SqliteDatabase;

  constructor(file: string, options: StoreOptions = DEFAULT_STORE_OPTIONS) {
    if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
    this.db = openFile(file, options);
    this.background = new BackgroundWriter(this.db, file);
    this.database = new SqliteDatabase(this.db);
    const translate = (error: unknown) => this.translate(error);
    this.applications = guardPort(new SqliteApplications(this.database), translate);
    this.versions = guardPort(new SqliteVersionsAndFiles(this.database, options), translate);
    this.accounts = guardPort(new SqliteAccounts(this.database), translate);
    this.accessTokens = guardPort(new SqliteAccessTokens(this.database), translate);
    this.uploads = guardPort(new SqliteUploads(this.database), translate);
    this.shareLinks = guardPort(new SqliteShareLinks(this.database), translate);
    this.activity = guardPort(new SqliteActivity(this.database, this.background), translate);
    this.adoption = guardPort(new SqliteAdoption(this.database, this.background), translate, ['openCheckWindow']);
    this.funnel = guardPort(new SqliteUpdateFunnel(this.database), translate);
    this.rolloutPlans = guardPort(new SqliteRolloutPlans(this.database), translate);
    this.webhooks = guardPort(new SqliteWebhooks(this.database), translate);
    this.audit = guardPort(new SqliteAudit(this.database), translate);
    this.tuf = guardPort(new SqliteTuf(this.database), translate);
    this.attestations = guardPort(new SqliteAttestations(this.database), translate);
  }

  async ping(): Promise<void> {
    try {
      this.database.prepare('SELECT 1').get();
    } catch (error) {
      throw this.translate(error);
    }
  }

  async close(): Promise<void> {
    await this.background.stop();
    if (this.db.open) this.db.close();
  }

  /** `error`, or DependencyUnavailableError when the file could not serve or is closed already. */
  private translate(error: unknown): unknown {
    return translateUnavailable(error, !this.db.open);
  }
}

/** The serving connection, with the schema migrated; a file that cannot be opened throws DependencyUnavailableError. */
function openFile(file: string, options: StoreOptions): Database.Database {
  let db: Database.Database | undefined;
  try {
    db = new Database(file);
    db.pragma('journal_mode = WAL');
    applyConnectionSettings(db);
    db.pragma('foreign_keys = OFF');
    migrateSchema(db, options);
    return db;
  } catch (error) {
    db?.close();
    throw translateUnavailable(error);
  }
}
