import { expect } from 'chai';
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_STORE_OPTIONS } from '../../shared/store/options';
import { FIRST_SCHEMA, migrateSchema, SCHEMA_VERSION } from '../../shared/store/sqlite/schema';

/** The numbered migrations of the SQLite store; what each migration does to stored rows is the store contract's. */
describe('SQLite schema migrations', () => {
  const open: Database.Database[] = [];
  const database = () => {
    const db = new Database(':memory:');
    open.push(db);
    return db;
  };
  afterEach(() => {
    for (const db of open.splice(0)) db.close();
  });

  const schemaOf = (db: Database.Database) => db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name').all();
  const versionOf = (db: Database.Database) => db.pragma('user_version', { simple: true });

  it('has one file per migration, numbered from 1 without a gap, listed in the order of their numbers', () => {
    const folder = path.resolve(__dirname, '..', '..', '..', 'shared', 'store', 'sqlite', 'migrations');
    const numbered = fs.readdirSync(folder).filter((name) => /^\d+-.*\.ts$/.test(name)).sort((a, b) => parseInt(a, 10) - parseInt(b, 10));
    expect(numbered.map((name) => parseInt(name, 10))).to.deep.equal(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
    const listed = [...fs.readFileSync(path.join(folder, 'index.ts'), 'utf8').matchAll(/from '\.\/(\d+-[^']+)'/g)].map((match) => `${match[1]}.ts`);
    expect(listed).to.deep.equal(numbered);
  });

  it('brings a new database and one of the release before numbering to the same schema, keeping its rows', () => {
    const fresh = database();
    migrateSchema(fresh, DEFAULT_STORE_OPTIONS);
    const earlier = database();
    earlier.exec(FIRST_SCHEMA);
    earlier.prepare(`INSERT INTO customers (customer_id, name, tier, is_active, created_at, updated_at) VALUES ('cust_1', 'Customer', 'basic', 1, 0, 0)`).run();
    migrateSchema(earlier, DEFAULT_STORE_OPTIONS);
    expect([versionOf(fresh), versionOf(earlier)]).to.deep.equal([SCHEMA_VERSION, SCHEMA_VERSION]);
    expect(schemaOf(earlier)).to.deep.equal(schemaOf(fresh));
    expect(earlier.prepare('SELECT customer_id FROM customers').pluck().all()).to.deep.equal(['cust_1']);
  });

  it('does nothing to a database already migrated', () => {
    const db = database();
    migrateSchema(db, DEFAULT_STORE_OPTIONS);
    const before = schemaOf(db);
    migrateSchema(db, DEFAULT_STORE_OPTIONS);
    expect(schemaOf(db)).to.deep.equal(before);
    expect(versionOf(db)).to.equal(SCHEMA_VERSION);
  });

  it('refuses a database of a later release, changing nothing', () => {
    const db = database();
    migrateSchema(db, DEFAULT_STORE_OPTIONS);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    const before = schemaOf(db);
    expect(() => migrateSchema(db, DEFAULT_STORE_OPTIONS)).to.throw(`the SQLite store is at schema version ${SCHEMA_VERSION + 1}`);
    expect(schemaOf(db)).to.deep.equal(before);
  });
});
