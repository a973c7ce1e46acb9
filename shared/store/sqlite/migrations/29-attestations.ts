import type { Migration } from './migration';

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

export const migration: Migration = (db) => db.exec(ATTESTATIONS);
