import { expect } from 'chai';
import Database from 'better-sqlite3';
import { DEFAULT_STORE_OPTIONS } from '../../shared/store/options';
import { migrateSchema } from '../../shared/store/sqlite/schema';
import { DUPLICATE_TARGETS, duplicateTarget } from '../../shared/store/sqlite/unique-indexes';

/** The contract suite proves the targets writes report; this proves the table names every unique index, and only those. */
describe('SQLite unique indexes', () => {
  let db: Database.Database;

  beforeEach(() => {
    db = new Database(':memory:');
    migrateSchema(db, DEFAULT_STORE_OPTIONS);
  });
  afterEach(() => {
    db.close();
  });

  function uniqueIndexesOfSchema(): string[] {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
    return tables.flatMap((table) =>
      (db.pragma(`index_list("${table}")`) as { name: string; unique: number }[]).filter((i) => i.unique === 1).map((i) => i.name));
  }

  it('maps every unique index of the schema to a DuplicateError target', () => {
    expect(uniqueIndexesOfSchema().sort()).to.deep.equal(Object.keys(DUPLICATE_TARGETS).sort());
  });

  it('finds the violated index from the table and columns SQLite reports, whatever their values', () => {
    db.prepare("INSERT INTO api_keys (key_id, customer_id, key_hash, prefix, created_at) VALUES ('k1', 'c1', 'h1', 'p', 0)").run();
    const refusal = (sql: string) => {
      try {
        db.prepare(sql).run();
      } catch (error) {
        return error;
      }
      throw new Error('expected the write to be refused');
    };
    const sameHash = refusal("INSERT INTO api_keys (key_id, customer_id, key_hash, prefix, created_at) VALUES ('k2', 'c1', 'h1', 'p', 0)");
    const sameId = refusal("INSERT INTO api_keys (key_id, customer_id, key_hash, prefix, created_at) VALUES ('k1', 'c1', 'h2', 'p', 0)");
    expect([duplicateTarget(db, sameHash), duplicateTarget(db, sameId)]).to.deep.equal(['keyHash', 'keyId']);
    expect(duplicateTarget(db, new Error('UNIQUE constraint failed: api_keys.key_hash'))).to.equal(null);
  });
});
