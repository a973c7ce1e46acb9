import type { Migration } from './migration';

const AUDIT_ACTOR_AND_TARGET_FEEDS = `
CREATE INDEX IF NOT EXISTS audit_feed_actor ON audit_log(actor, ts DESC, entry_id DESC);
CREATE INDEX IF NOT EXISTS audit_feed_target ON audit_log(target, ts DESC, entry_id DESC);
`;

export const migration: Migration = (db) => db.exec(AUDIT_ACTOR_AND_TARGET_FEEDS);
