import type { Migration } from './migration';

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

export const migration: Migration = (db) => db.exec(ACCESS_TOKENS);
