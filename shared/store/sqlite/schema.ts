import type Database from 'better-sqlite3';
import { versionOrderKey } from '../../releases/version-order';
import { CHECK_WRITE_GROUP_MAX_ITEMS } from '../../policy';
import type { CheckEvent, UpdateClientFamily } from '../models';
import type { StoreOptions } from '../options';
import { checkColumns } from '../check-columns';
import { checksIn, encodeWindow, windowKey } from './check-windows';

/**
 * SQLite schema of the embedded store, built by numbered migrations: PRAGMA user_version is the
 * number of the last one applied. Dates are milliseconds since the epoch; string arrays are JSON.
 * `live` marks files that reserve their name and MAIN slot (pending or available); failed files release them.
 * Events carry no per-row "counted" flag: the rollup keeps one position (rollup_state), so an insert
 * touches no index beyond the feed's and a fold rewrites no event.
 */

/**
 * 1: the schema as first released, before its versions were numbered. Every statement is IF NOT
 * EXISTS, so on a database of that release (user_version 0, its tables there) it changes nothing.
 * Never to be edited: changes are new migrations.
 */
export const FIRST_SCHEMA = `
CREATE TABLE IF NOT EXISTS applications (
  application_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  description TEXT,
  tags TEXT NOT NULL,
  customer_ids TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  deleted_at INTEGER
);
CREATE INDEX IF NOT EXISTS applications_created ON applications(created_at, application_id);

CREATE TABLE IF NOT EXISTS versions (
  application_id TEXT NOT NULL,
  version TEXT NOT NULL,
  release_notes TEXT,
  required_tier TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (application_id, version)
);

CREATE TABLE IF NOT EXISTS files (
  file_id TEXT PRIMARY KEY,
  application_id TEXT NOT NULL,
  version TEXT NOT NULL,
  file_name TEXT NOT NULL,
  file_size INTEGER NOT NULL,
  content_type TEXT NOT NULL,
  checksum TEXT,
  file_type TEXT NOT NULL,
  status TEXT NOT NULL,
  live INTEGER NOT NULL,
  storage_key TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS files_version ON files(application_id, version, created_at);
CREATE UNIQUE INDEX IF NOT EXISTS files_live_name ON files(application_id, version, file_name) WHERE live = 1;
CREATE UNIQUE INDEX IF NOT EXISTS files_live_main ON files(application_id, version) WHERE live = 1 AND file_type = 'MAIN';

CREATE TABLE IF NOT EXISTS customers (
  customer_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  tier TEXT NOT NULL,
  is_active INTEGER NOT NULL,
  notes TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS customers_created ON customers(created_at, customer_id);

CREATE TABLE IF NOT EXISTS api_keys (
  key_id TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_used_at INTEGER,
  revoked_at INTEGER
);
CREATE INDEX IF NOT EXISTS api_keys_customer ON api_keys(customer_id, created_at);

CREATE TABLE IF NOT EXISTS upload_sessions (
  upload_id TEXT PRIMARY KEY,
  application_id TEXT NOT NULL,
  version TEXT NOT NULL,
  file_name TEXT NOT NULL,
  file_size INTEGER NOT NULL,
  content_type TEXT NOT NULL,
  file_type TEXT NOT NULL,
  release_notes TEXT,
  required_tier TEXT,
  file_id TEXT NOT NULL,
  storage_key TEXT NOT NULL,
  status TEXT NOT NULL,
  expected_checksum TEXT,
  failure_reason TEXT,
  expires_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS upload_sessions_expiry ON upload_sessions(status, expires_at);

CREATE TABLE IF NOT EXISTS share_links (
  token_hash TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL,
  application_id TEXT NOT NULL,
  version TEXT NOT NULL,
  file_id TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  revoked_at INTEGER,
  expired_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS share_links_expiry ON share_links(expires_at);

CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY,
  event_id TEXT NOT NULL UNIQUE,
  type TEXT NOT NULL,
  application_id TEXT NOT NULL,
  version TEXT NOT NULL,
  file_id TEXT NOT NULL,
  customer_id TEXT,
  client_ip TEXT,
  user_agent TEXT,
  ts INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS events_feed ON events(ts DESC, event_id DESC);
CREATE INDEX IF NOT EXISTS events_feed_app ON events(application_id, ts DESC, event_id DESC);

-- Rollup position: events up to last_seq are counted. seq is the rowid, assigned in commit order
-- (SQLite has one writer at a time) and never reused, since events are never deleted.
CREATE TABLE IF NOT EXISTS rollup_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  last_seq INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS daily_counts (
  application_id TEXT NOT NULL,
  version TEXT NOT NULL,
  date TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (application_id, date, version)
);
`;

/**
 * 2: the release model. Versions gain a channel, a status, a rollout percentage, when they were
 * first published and their order key (version-order.ts), which listings sort by through
 * versions_order. Files gain a platform, an arch and a SHA-512, and a version holds one live MAIN file
 * per platform and arch. Upload sessions carry an upload's release fields; events and daily counters
 * the platform. What was stored before reads as: published since creation, in the default channel,
 * to everyone; platform and arch `any`; no SHA-512.
 */
function releaseModel(db: Database.Database, options: StoreOptions): void {
  db.exec(`
ALTER TABLE versions ADD COLUMN channel TEXT NOT NULL DEFAULT ${sqlText(options.defaultChannel)};
ALTER TABLE versions ADD COLUMN status TEXT NOT NULL DEFAULT 'published';
ALTER TABLE versions ADD COLUMN rollout_percentage INTEGER NOT NULL DEFAULT 100;
ALTER TABLE versions ADD COLUMN published_at INTEGER;
ALTER TABLE versions ADD COLUMN order_key TEXT NOT NULL DEFAULT '';
UPDATE versions SET published_at = created_at;
`);
  // Read first: better-sqlite3 runs no other statement on a connection while one is being iterated.
  const versions = db.prepare('SELECT application_id, version FROM versions').all() as { application_id: string; version: string }[];
  const setOrderKey = db.prepare('UPDATE versions SET order_key = ? WHERE application_id = ? AND version = ?');
  for (const row of versions) setOrderKey.run(versionOrderKey(row.version), row.application_id, row.version);
  db.exec(`
CREATE INDEX versions_order ON versions(application_id, order_key DESC, created_at DESC, version DESC);

ALTER TABLE files ADD COLUMN platform TEXT NOT NULL DEFAULT 'any';
ALTER TABLE files ADD COLUMN arch TEXT NOT NULL DEFAULT 'any';
ALTER TABLE files ADD COLUMN sha512 TEXT;
DROP INDEX files_live_main;
-- Created after files_live_name, so SQLite checks it first: a MAIN file colliding on both reports the MAIN slot.
CREATE UNIQUE INDEX files_live_main ON files(application_id, version, platform, arch) WHERE live = 1 AND file_type = 'MAIN';
-- Only the files a digest backfill still has to visit; each leaves it once it has its SHA-512.
CREATE INDEX files_missing_sha512 ON files(file_id) WHERE status = 'available' AND sha512 IS NULL;

ALTER TABLE upload_sessions ADD COLUMN platform TEXT NOT NULL DEFAULT 'any';
ALTER TABLE upload_sessions ADD COLUMN arch TEXT NOT NULL DEFAULT 'any';
ALTER TABLE upload_sessions ADD COLUMN channel TEXT;
ALTER TABLE upload_sessions ADD COLUMN version_status TEXT;

ALTER TABLE events ADD COLUMN platform TEXT NOT NULL DEFAULT 'any';
ALTER TABLE events ADD COLUMN arch TEXT NOT NULL DEFAULT 'any';

-- A key cannot gain a column in place: the counters move to a table keyed by platform too.
ALTER TABLE daily_counts RENAME TO daily_counts_before_platforms;
CREATE TABLE daily_counts (
  application_id TEXT NOT NULL,
  version TEXT NOT NULL,
  platform TEXT NOT NULL,
  date TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (application_id, date, version, platform)
);
INSERT INTO daily_counts (application_id, version, platform, date, count)
  SELECT application_id, version, 'any', date, count FROM daily_counts_before_platforms;
DROP TABLE daily_counts_before_platforms;
`);
}

/**
 * 3: webhooks. An endpoint's event types are also rows of webhook_subscriptions, keyed by event type,
 * so an event's subscribers are found through the key rather than by reading every endpoint. The
 * delivery log is read per endpoint, newest first, and purged by age.
 */
const WEBHOOKS = `
CREATE TABLE webhook_endpoints (
  webhook_id TEXT PRIMARY KEY,
  url TEXT NOT NULL,
  events TEXT NOT NULL,
  description TEXT,
  is_active INTEGER NOT NULL,
  disabled_reason TEXT,
  secret TEXT NOT NULL,
  previous_secret TEXT,
  previous_secret_expires_at INTEGER,
  failing_since INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX webhook_endpoints_created ON webhook_endpoints(created_at, webhook_id);

CREATE TABLE webhook_subscriptions (
  event_type TEXT NOT NULL,
  webhook_id TEXT NOT NULL,
  PRIMARY KEY (event_type, webhook_id)
) WITHOUT ROWID;
CREATE INDEX webhook_subscriptions_endpoint ON webhook_subscriptions(webhook_id);

CREATE TABLE webhook_deliveries (
  delivery_id TEXT PRIMARY KEY,
  webhook_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  payload TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  last_attempt_at INTEGER,
  response_status INTEGER,
  response_body TEXT,
  error TEXT,
  delivered_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX webhook_deliveries_log ON webhook_deliveries(webhook_id, created_at DESC, delivery_id DESC);
CREATE INDEX webhook_deliveries_created ON webhook_deliveries(created_at);
`;

/**
 * 4: scoped admin keys and the audit log. Active keys are listed through a partial index; the audit
 * log is read newest first, by itself or for one action, one application or both, each through an
 * index in that order.
 */
const ADMIN_KEYS_AND_AUDIT_LOG = `
CREATE TABLE admin_keys (
  key_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  scopes TEXT NOT NULL,
  application_ids TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER,
  last_used_at INTEGER,
  revoked_at INTEGER
);
CREATE INDEX admin_keys_active ON admin_keys(created_at, key_id) WHERE revoked_at IS NULL;

CREATE TABLE audit_log (
  entry_id TEXT PRIMARY KEY,
  ts INTEGER NOT NULL,
  actor TEXT NOT NULL,
  action TEXT NOT NULL,
  target TEXT,
  application_id TEXT,
  request_id TEXT NOT NULL,
  outcome TEXT NOT NULL,
  status INTEGER
);
CREATE INDEX audit_feed ON audit_log(ts DESC, entry_id DESC);
CREATE INDEX audit_feed_action ON audit_log(action, ts DESC, entry_id DESC);
CREATE INDEX audit_feed_app ON audit_log(application_id, ts DESC, entry_id DESC);
CREATE INDEX audit_feed_app_action ON audit_log(application_id, action, ts DESC, entry_id DESC);
`;

/**
 * 5: multipart uploads. A session of one names the object store's multipart upload and its part
 * size; sessions stored before are single-PUT uploads (both null).
 */
const MULTIPART_UPLOADS = `
ALTER TABLE upload_sessions ADD COLUMN multipart_upload_id TEXT;
ALTER TABLE upload_sessions ADD COLUMN multipart_part_size INTEGER;
`;

/**
 * 6: share-link caps. A link may allow a number of uses (max_downloads, null for none), counted in
 * download_count by a conditional UPDATE. Links stored before have no cap.
 */
const SHARE_LINK_CAPS = `
ALTER TABLE share_links ADD COLUMN max_downloads INTEGER;
ALTER TABLE share_links ADD COLUMN download_count INTEGER NOT NULL DEFAULT 0;
`;

/**
 * 7: webhook events Redis refused, kept until a worker queues them, read oldest first.
 */
const UNQUEUED_WEBHOOK_EVENTS = `
CREATE TABLE unqueued_webhook_events (
  event_id TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  occurred_at INTEGER NOT NULL,
  data TEXT NOT NULL,
  kept_at INTEGER NOT NULL
);
CREATE INDEX unqueued_webhook_events_kept ON unqueued_webhook_events(kept_at, event_id);
`;

/** 8: applications gain the minisign public key their update signatures are verified under; none before. */
const UPDATE_SIGNING_KEYS = `
ALTER TABLE applications ADD COLUMN update_signing_key TEXT;
`;

/**
 * 9: the webhook outbox, which the events kept while Redis refused them join (ready to be queued):
 * an entry is written before its change (pending) and made ready with its data once the change is
 * written; the relay reads the entries older than their writer needs by (written_at, event_id).
 */
const WEBHOOK_OUTBOX = `
CREATE TABLE webhook_outbox (
  event_id TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  occurred_at INTEGER NOT NULL,
  state TEXT NOT NULL,
  data TEXT,
  subject TEXT NOT NULL,
  written_at INTEGER NOT NULL
);
CREATE INDEX webhook_outbox_written ON webhook_outbox(written_at, event_id);
INSERT INTO webhook_outbox (event_id, type, occurred_at, state, data, subject, written_at)
  SELECT event_id, type, occurred_at, 'ready', data, '[]', kept_at FROM unqueued_webhook_events;
DROP TABLE unqueued_webhook_events;
`;

/**
 * 10: SemVer versions with a number past 2^53 and a prerelease or build metadata were keyed as
 * free-form (below every version); every stored key is recomputed by the version order of this
 * release, and the ones that differ rewritten.
 */
function rekeyVersions(db: Database.Database): void {
  const versions = db.prepare('SELECT application_id, version, order_key FROM versions').all() as { application_id: string; version: string; order_key: string }[];
  const setOrderKey = db.prepare('UPDATE versions SET order_key = ? WHERE application_id = ? AND version = ?');
  for (const row of versions) {
    const key = versionOrderKey(row.version);
    if (key !== row.order_key) setOrderKey.run(key, row.application_id, row.version);
  }
}

/** 11: a SIGNATURE file's reason for no longer verifying under its application's key; none before. */
const SIGNATURE_PROBLEMS = `
ALTER TABLE files ADD COLUMN signature_problem TEXT;
`;

/**
 * 12: applications gain the status of the versions their uploads create without naming one.
 * Applications stored before keep publishing such versions at once, as they did.
 */
const DEFAULT_VERSION_STATUS = `
ALTER TABLE applications ADD COLUMN default_version_status TEXT NOT NULL DEFAULT 'published';
`;

/**
 * Sparkle's appcast: applications gain the Ed25519 key Sparkle signatures verify under, and versions
 * their bundle version, the oldest system they run on, and whether they are critical.
 */
const SPARKLE_FIELDS = `
ALTER TABLE applications ADD COLUMN sparkle_public_key TEXT;
ALTER TABLE versions ADD COLUMN bundle_version TEXT;
ALTER TABLE versions ADD COLUMN minimum_system_version TEXT;
ALTER TABLE versions ADD COLUMN critical INTEGER NOT NULL DEFAULT 0;
`;

// A NOCASE index serves a case-insensitive LIKE 'prefix%' on the name (and the id); a customer's share links are listed newest first.
const CUSTOMER_SEARCH_AND_SHARE_LINK_LISTING = `
CREATE INDEX IF NOT EXISTS customers_name_nocase ON customers(name COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS customers_id_nocase ON customers(customer_id COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS share_links_customer ON share_links(customer_id, created_at);
`;

// The audit log filtered by who acted or what was acted on, each in log order.
const AUDIT_ACTOR_AND_TARGET_FEEDS = `
CREATE INDEX IF NOT EXISTS audit_feed_actor ON audit_log(actor, ts DESC, entry_id DESC);
CREATE INDEX IF NOT EXISTS audit_feed_target ON audit_log(target, ts DESC, entry_id DESC);
`;

/**
 * Customers' access tokens, their counts per period, and the keyed hashes of the client addresses
 * that used them in a period (so a distinct client is counted once, and no address is stored).
 */
const ACCESS_TOKENS = `
CREATE TABLE IF NOT EXISTS access_tokens (
  token_id TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  name TEXT,
  max_downloads INTEGER,
  max_clients INTEGER,
  max_bytes INTEGER,
  valid_from INTEGER,
  valid_until INTEGER,
  applications TEXT,
  channels TEXT,
  platforms TEXT,
  reset_every TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  last_used_at INTEGER,
  revoked_at INTEGER
);
CREATE INDEX IF NOT EXISTS access_tokens_customer ON access_tokens(customer_id, created_at);
CREATE TABLE IF NOT EXISTS access_token_usage (
  token_id TEXT NOT NULL,
  period_start INTEGER NOT NULL,
  downloads INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  clients INTEGER NOT NULL,
  PRIMARY KEY (token_id, period_start)
);
CREATE TABLE IF NOT EXISTS access_token_clients (
  token_id TEXT NOT NULL,
  period_start INTEGER NOT NULL,
  client_hash TEXT NOT NULL,
  PRIMARY KEY (token_id, period_start, client_hash)
);
`;

/**
 * Applications gain a licence customers accept before downloading, and acceptances are kept per
 * revision (one row each: the first acceptance of a revision is the one kept).
 */
const LICENCE_ACCEPTANCES = `
ALTER TABLE applications ADD COLUMN licence_text TEXT;
ALTER TABLE applications ADD COLUMN licence_revision INTEGER;
CREATE TABLE licence_acceptances (
  application_id TEXT NOT NULL,
  customer_id TEXT NOT NULL,
  revision INTEGER NOT NULL,
  accepted_at INTEGER NOT NULL,
  client_ip TEXT,
  PRIMARY KEY (application_id, customer_id, revision)
) WITHOUT ROWID;
`;

/** Applications gain how the customer portal presents them; none before. */
const APPLICATION_BRANDING = `
ALTER TABLE applications ADD COLUMN display_name TEXT;
ALTER TABLE applications ADD COLUMN accent_colour TEXT;
ALTER TABLE applications ADD COLUMN support_url TEXT;
`;

/**
 * Files gain their SHA-1 (Squirrel.Windows' RELEASES and Velopack's feed list it). Files stored
 * before have none until the digest backfill reaches them, which now visits a file missing either
 * digest.
 */
const FILE_SHA1 = `
ALTER TABLE files ADD COLUMN sha1 TEXT;
DROP INDEX files_missing_sha512;
CREATE INDEX files_missing_digests ON files(file_id) WHERE status = 'available' AND (sha512 IS NULL OR sha1 IS NULL);
`;

/** Why a version was yanked (null for every version yanked before it was kept). */
const YANK_REASONS = `
ALTER TABLE versions ADD COLUMN yank_reason TEXT;
`;

/**
 * Adoption analytics: every answered update check (no address stored: a keyed install hash), the
 * rollup position over them, the daily counters per (channel, platform, arch, version), each of which
 * may be '*' for all, and each customer's last reported versions.
 */
/**
 * Download counters per arch and per customer, beside daily_counts and filled by the same rollup
 * transaction. Keyed by version too, so the statistics' version and channel filters apply to them.
 * Downloads rolled up before this migration are in neither: these counters start at zero.
 */
const DOWNLOAD_BREAKDOWNS = `
CREATE TABLE daily_arch_counts (
  application_id TEXT NOT NULL,
  date TEXT NOT NULL,
  version TEXT NOT NULL,
  arch TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (application_id, date, version, arch)
);
CREATE TABLE daily_customer_counts (
  application_id TEXT NOT NULL,
  date TEXT NOT NULL,
  version TEXT NOT NULL,
  customer_id TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (application_id, date, version, customer_id)
);
`;

const UPDATE_CHECKS = `
CREATE TABLE check_events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  event_id TEXT NOT NULL UNIQUE,
  application_id TEXT NOT NULL,
  customer_id TEXT NOT NULL,
  client TEXT NOT NULL,
  platform TEXT NOT NULL,
  arch TEXT NOT NULL,
  channel TEXT NOT NULL,
  running_version TEXT NOT NULL,
  offered_version TEXT,
  install_id TEXT,
  install_hash TEXT NOT NULL,
  ts INTEGER NOT NULL
);
CREATE INDEX check_events_ts ON check_events (ts);
CREATE TABLE check_rollup_state (id INTEGER PRIMARY KEY CHECK (id = 1), last_seq INTEGER NOT NULL);
CREATE TABLE adoption_counts (
  application_id TEXT NOT NULL,
  channel TEXT NOT NULL,
  platform TEXT NOT NULL,
  arch TEXT NOT NULL,
  date TEXT NOT NULL,
  version TEXT NOT NULL,
  checks INTEGER NOT NULL,
  installs INTEGER NOT NULL,
  PRIMARY KEY (application_id, channel, platform, arch, date, version)
) WITHOUT ROWID;
CREATE TABLE customer_versions (
  application_id TEXT NOT NULL,
  customer_id TEXT NOT NULL,
  version TEXT NOT NULL,
  last_reported_at INTEGER NOT NULL,
  PRIMARY KEY (application_id, customer_id, version)
) WITHOUT ROWID;
`;

/** Applications gain a logo for the customer portal: what its stored bytes are (null columns: none). */
const APPLICATION_LOGOS = `
ALTER TABLE applications ADD COLUMN logo_content_type TEXT;
ALTER TABLE applications ADD COLUMN logo_size INTEGER;
ALTER TABLE applications ADD COLUMN logo_sha256 TEXT;
ALTER TABLE applications ADD COLUMN logo_updated_at INTEGER;
`;

/** A customer's deletion removes its licence acceptances: found by customer, not by a scan. */
const ACCEPTANCES_BY_CUSTOMER = `
CREATE INDEX licence_acceptances_customer ON licence_acceptances(customer_id);
`;

/**
 * Raw update checks move from a row each to a row per written window (check-windows.ts). The checks
 * stored keep their numbers: each run of consecutive numbers becomes windows of at most
 * CHECK_WRITE_GROUP_MAX_ITEMS checks, so the rollup position still names the last check folded.
 */
function checkWindows(db: Database.Database): void {
  db.exec(`
CREATE TABLE check_windows (
  first_seq INTEGER PRIMARY KEY,
  checks INTEGER NOT NULL,
  first_ts INTEGER NOT NULL,
  window_key TEXT NOT NULL UNIQUE,
  body BLOB NOT NULL
);
`);
  const insert = db.prepare('INSERT INTO check_windows (first_seq, checks, first_ts, window_key, body) VALUES (?, ?, ?, ?, ?)');
  let run: { firstSeq: number; checks: CheckEvent[] } | undefined;
  const store = (): void => {
    if (!run) return;
    const columns = checkColumns(run.checks);
    insert.run(run.firstSeq, checksIn(columns), columns.timestamps[0], windowKey(columns), encodeWindow(columns));
    run = undefined;
  };
  const add = (row: Record<string, string | number | null>): void => {
    const seq = row.seq as number;
    if (run && (run.firstSeq + run.checks.length !== seq || run.checks.length >= CHECK_WRITE_GROUP_MAX_ITEMS)) store();
    run ??= { firstSeq: seq, checks: [] };
    run.checks.push({
      eventId: row.event_id as string, applicationId: row.application_id as string, customerId: row.customer_id as string,
      client: row.client as UpdateClientFamily, platform: row.platform as string, arch: row.arch as string, channel: row.channel as string,
      runningVersion: row.running_version as string, offeredVersion: row.offered_version as string | null, installId: row.install_id as string | null,
      installHash: row.install_hash as string, timestamp: new Date(row.ts as number),
    } as CheckEvent);
  };
  // Read a page at a time: the connection cannot write while a read is open on it.
  const page = db.prepare('SELECT * FROM check_events WHERE seq > ? ORDER BY seq LIMIT 10000');
  for (let rows = page.all(0) as Record<string, string | number | null>[]; rows.length > 0; rows = page.all(rows[rows.length - 1].seq) as typeof rows) {
    for (const row of rows) add(row);
  }
  store();
  db.exec('DROP TABLE check_events');
}

/**
 * Package repositories: a `.deb`'s control paragraph or an `.rpm`'s header fields kept with its file
 * (JSON; null for other files and those stored before), and each application's repository signing
 * keys, one row per application, written by compare-and-set on its revision.
 */
const PACKAGE_REPOSITORIES = `
ALTER TABLE files ADD COLUMN package_info TEXT;
CREATE TABLE repository_keys (
  application_id TEXT PRIMARY KEY,
  revision INTEGER NOT NULL,
  keys TEXT NOT NULL
);
`;

/** Channel names are validated at start-up; quoting keeps the statement whole whatever they hold. */
const sqlText = (value: string): string => `'${value.replace(/'/g, "''")}'`;

type Migration = (db: Database.Database, options: StoreOptions) => void;

/**
 * When the purge of a soft-deleted application's releases started (null: not started). Kept beside
 * the application, not in its record: a marked application is never restored.
 */
const RELEASE_PURGES = `
ALTER TABLE applications ADD COLUMN release_purge_started_at INTEGER;
`;

/**
 * Applications' TUF repositories: the online keys (private halves sealed) and the online metadata last
 * signed, one row per application; the roots the vendor uploaded, one row per version.
 */
const TUF_REPOSITORIES = `
CREATE TABLE tuf_repositories (
  application_id TEXT PRIMARY KEY,
  online_keys TEXT NOT NULL,
  metadata TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE tuf_roots (
  application_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  document TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (application_id, version)
) WITHOUT ROWID;
`;

/**
 * Provenance attestations of files (read by file, in upload order) and the public keys an
 * application's vendor registered to check their signatures.
 */
const ATTESTATIONS = `
CREATE TABLE attestation_keys (
  application_id TEXT NOT NULL,
  key_id TEXT NOT NULL,
  algorithm TEXT NOT NULL,
  public_key_pem TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (application_id, key_id)
);
CREATE TABLE attestations (
  attestation_id TEXT PRIMARY KEY,
  application_id TEXT NOT NULL,
  version TEXT NOT NULL,
  file_id TEXT NOT NULL,
  format TEXT NOT NULL,
  predicate_type TEXT NOT NULL,
  digest_algorithm TEXT NOT NULL,
  builder_id TEXT,
  source_repository TEXT,
  source_commit TEXT,
  verification TEXT NOT NULL,
  verified_key_id TEXT,
  verification_detail TEXT,
  document TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX attestations_file ON attestations(file_id, created_at, attestation_id);
CREATE INDEX attestations_application ON attestations(application_id);
`;

/**
 * The update funnel: each install a release was offered to (its first offer, its first arrival
 * after it), keyed by release and install; the funnel's position among the check windows' checks
 * (apart from the adoption rollup's); versions' rollout plans; and the reports apps send about updates.
 */
const UPDATE_FUNNEL = `
CREATE TABLE install_offers (
  application_id TEXT NOT NULL,
  version TEXT NOT NULL,
  install_key TEXT NOT NULL,
  customer_id TEXT NOT NULL,
  platform TEXT NOT NULL,
  arch TEXT NOT NULL,
  channel TEXT NOT NULL,
  offered_at INTEGER NOT NULL,
  arrived_at INTEGER,
  PRIMARY KEY (application_id, version, install_key)
) WITHOUT ROWID;
CREATE TABLE funnel_check_state (id INTEGER PRIMARY KEY CHECK (id = 1), last_seq INTEGER NOT NULL);
CREATE TABLE rollout_plans (
  application_id TEXT NOT NULL,
  version TEXT NOT NULL,
  plan TEXT NOT NULL,
  status TEXT NOT NULL,
  step INTEGER NOT NULL,
  started_at INTEGER NOT NULL,
  halted_at INTEGER,
  halt_reason TEXT,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (application_id, version)
);
CREATE INDEX rollout_plans_running ON rollout_plans (application_id, version) WHERE status = 'running';
CREATE TABLE update_reports (
  report_id TEXT PRIMARY KEY,
  application_id TEXT NOT NULL,
  customer_id TEXT NOT NULL,
  install_id TEXT,
  from_version TEXT NOT NULL,
  to_version TEXT NOT NULL,
  event TEXT NOT NULL,
  message TEXT,
  received_at INTEGER NOT NULL
);
CREATE INDEX update_reports_by_release ON update_reports (application_id, to_version, event, message);
`;

/** In order: migration n brings a database from user_version n - 1 to n. */
const MIGRATIONS: readonly Migration[] = [
  (db) => db.exec(FIRST_SCHEMA),
  releaseModel,
  (db) => db.exec(WEBHOOKS),
  (db) => db.exec(ADMIN_KEYS_AND_AUDIT_LOG),
  (db) => db.exec(MULTIPART_UPLOADS),
  (db) => db.exec(SHARE_LINK_CAPS),
  (db) => db.exec(UNQUEUED_WEBHOOK_EVENTS),
  (db) => db.exec(UPDATE_SIGNING_KEYS),
  (db) => db.exec(WEBHOOK_OUTBOX),
  rekeyVersions,
  (db) => db.exec(SIGNATURE_PROBLEMS),
  (db) => db.exec(DEFAULT_VERSION_STATUS),
  (db) => db.exec(SPARKLE_FIELDS),
  (db) => db.exec(CUSTOMER_SEARCH_AND_SHARE_LINK_LISTING),
  (db) => db.exec(AUDIT_ACTOR_AND_TARGET_FEEDS),
  (db) => db.exec(ACCESS_TOKENS),
  (db) => db.exec(LICENCE_ACCEPTANCES),
  (db) => db.exec(APPLICATION_BRANDING),
  (db) => db.exec(FILE_SHA1),
  (db) => db.exec(YANK_REASONS),
  (db) => db.exec(UPDATE_CHECKS),
  (db) => db.exec(DOWNLOAD_BREAKDOWNS),
  (db) => db.exec(APPLICATION_LOGOS),
  (db) => db.exec(ACCEPTANCES_BY_CUSTOMER),
  checkWindows,
  (db) => db.exec(RELEASE_PURGES),
  (db) => db.exec(TUF_REPOSITORIES),
  (db) => db.exec(PACKAGE_REPOSITORIES),
  (db) => db.exec(ATTESTATIONS),
  (db) => db.exec(UPDATE_FUNNEL),
];

export const SCHEMA_VERSION = MIGRATIONS.length;
/** The schema version the check windows' migration brings a database to. */
export const CHECK_WINDOWS_SCHEMA_VERSION = MIGRATIONS.indexOf(checkWindows) + 1;

/**
 * Brings the database to SCHEMA_VERSION: the migrations it lacks, in one IMMEDIATE transaction, so
 * that of two processes opening the file together one migrates and the other then finds nothing to
 * do, and a failed migration leaves the database as it was. A database of a later release is refused:
 * this release would not know what its columns mean. `target`: an earlier schema version, to build
 * a database as an earlier release left it (tests of the migrations after it).
 */
export function migrateSchema(db: Database.Database, options: StoreOptions, target = SCHEMA_VERSION): void {
  const migrate = db.transaction(() => {
    const current = db.pragma('user_version', { simple: true }) as number;
    if (current > SCHEMA_VERSION) {
      throw new Error(`the SQLite store is at schema version ${current}, newer than this release's ${SCHEMA_VERSION}`);
    }
    for (let version = current + 1; version <= target; version += 1) MIGRATIONS[version - 1](db, options);
    if (current < target) db.pragma(`user_version = ${target}`);
  });
  migrate.immediate();
}
