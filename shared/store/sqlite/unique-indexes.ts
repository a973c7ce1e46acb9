import type Database from 'better-sqlite3';

/**
 * Every unique index of the schema, by name, and the DuplicateError target a violation of it raises:
 * the same targets as the MongoDB adapter's. SQLite names the index of a PRIMARY KEY or UNIQUE column
 * constraint itself, sqlite_autoindex_<table>_<n>, n counting the table's constraints in the order
 * schema.ts declares them.
 */
export const DUPLICATE_TARGETS: Readonly<Record<string, string>> = {
  sqlite_autoindex_applications_1: 'applicationId',
  sqlite_autoindex_install_offers_1: 'installOffer',
  sqlite_autoindex_rollout_plans_1: 'rolloutPlan',
  sqlite_autoindex_update_reports_1: 'reportId',
  sqlite_autoindex_versions_1: 'version',
  sqlite_autoindex_files_1: 'fileId',
  files_live_main: 'mainFile',
  files_live_name: 'fileName',
  sqlite_autoindex_customers_1: 'customerId',
  sqlite_autoindex_api_keys_1: 'keyId',
  sqlite_autoindex_api_keys_2: 'keyHash',
  sqlite_autoindex_upload_sessions_1: 'uploadId',
  sqlite_autoindex_share_links_1: 'tokenHash',
  sqlite_autoindex_events_1: 'eventId',
  sqlite_autoindex_daily_counts_1: 'dailyCount',
  // The per-arch and per-customer counters of a day: on MongoDB parts of the same daily document.
  sqlite_autoindex_daily_arch_counts_1: 'dailyCount',
  sqlite_autoindex_daily_customer_counts_1: 'dailyCount',
  sqlite_autoindex_webhook_endpoints_1: 'webhookId',
  sqlite_autoindex_webhook_subscriptions_1: 'webhookSubscription',
  sqlite_autoindex_webhook_deliveries_1: 'deliveryId',
  sqlite_autoindex_admin_keys_1: 'keyId',
  sqlite_autoindex_admin_keys_2: 'keyHash',
  sqlite_autoindex_audit_log_1: 'entryId',
  sqlite_autoindex_webhook_outbox_1: 'eventId',
  sqlite_autoindex_access_tokens_1: 'tokenId',
  sqlite_autoindex_access_tokens_2: 'tokenHash',
  sqlite_autoindex_access_token_usage_1: 'tokenUsage',
  sqlite_autoindex_access_token_clients_1: 'tokenClient',
  sqlite_autoindex_licence_acceptances_1: 'licenceAcceptance',
  sqlite_autoindex_check_windows_1: 'checkWindow',
  sqlite_autoindex_adoption_counts_1: 'adoptionCount',
  sqlite_autoindex_customer_versions_1: 'customerVersion',
  sqlite_autoindex_tuf_repositories_1: 'tufRepository',
  sqlite_autoindex_tuf_roots_1: 'tufRoot',
  sqlite_autoindex_repository_keys_1: 'repositoryKeys',
  sqlite_autoindex_attestation_keys_1: 'attestationKey',
  sqlite_autoindex_attestations_1: 'attestationId',
};

const UNIQUE_VIOLATIONS = new Set(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);

/**
 * The DuplicateError target of a unique-constraint failure, or null for any other error. SQLite
 * reports which key collided only in its message, in one fixed form: "UNIQUE constraint failed:
 * table.column, ..." (or "index 'name'" for an index on expressions). The violated index is the unique
 * index of that table with exactly those columns in that order, read from the schema catalog; its
 * name gives the target. An index not listed above reports the target 'record'.
 */
export function duplicateTarget(db: Database.Database, error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !UNIQUE_VIOLATIONS.has(code)) return null;
  const index = violatedIndex(db, (error as Error).message);
  return (index !== undefined && DUPLICATE_TARGETS[index]) || 'record';
}

function violatedIndex(db: Database.Database, message: string): string | undefined {
  const failed = /^UNIQUE constraint failed: (.+)$/.exec(message)?.[1];
  if (failed === undefined) return undefined;
  const named = /^index '(.+)'$/.exec(failed);
  if (named) return named[1];
  const qualified = failed.split(', ').map((column) => column.split('.'));
  const table = qualified[0][0];
  const columns = qualified.map(([, column]) => column);
  const indexes = db.pragma(`index_list(${quoteIdentifier(table)})`) as { name: string; unique: number }[];
  return indexes.find((index) => index.unique === 1 && sameColumns(indexColumns(db, index.name), columns))?.name;
}

function indexColumns(db: Database.Database, index: string): (string | null)[] {
  return (db.pragma(`index_info(${quoteIdentifier(index)})`) as { name: string | null }[]).map((column) => column.name);
}

const sameColumns = (a: (string | null)[], b: string[]) => a.length === b.length && a.every((column, i) => column === b[i]);

const quoteIdentifier = (name: string) => `"${name.replace(/"/g, '""')}"`;
