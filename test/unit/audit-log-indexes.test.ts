import { expect } from 'chai';
import Database from 'better-sqlite3';
import { auditListingIndex } from '../../shared/store/mongo/audit';
import { auditEntrySchema } from '../../shared/store/mongo/schemas/audit';
import { DEFAULT_STORE_OPTIONS } from '../../shared/store/options';
import { auditListing } from '../../shared/store/sqlite/audit';
import { migrateSchema } from '../../shared/store/sqlite/schema';
import type { AuditQuery } from '../../shared/store/store';

/** Every shape the audit log is read in: each filter alone, both, none, first page and later ones. */
const SHAPES: AuditQuery[] = [{}, { action: 'a.b' }, { applicationId: 'app' }, { action: 'a.b', applicationId: 'app' }].flatMap((filters) => [
  { ...filters, limit: 21 },
  { ...filters, limit: 21, after: { timestamp: new Date(0), entryId: 'x' } },
]);
const describeShape = (query: AuditQuery) => JSON.stringify({ ...query, limit: undefined });

/** Who acted and what was acted on, alone or with the other filters, over a period or not. */
const WHO_AND_WHAT: AuditQuery[] = [
  { actor: 'root' }, { target: 'acme' }, { actor: 'root', target: 'acme' }, { actor: 'root', action: 'a.b', applicationId: 'app' },
].flatMap((filters) => [{}, { from: new Date(0), before: new Date(86_400_000) }].flatMap((period) => [
  { ...filters, ...period, limit: 21 },
  { ...filters, ...period, limit: 21, after: { timestamp: new Date(0), entryId: 'x' } },
]));

describe('audit log indexes', () => {
  it('SQLite reads every listing through an index in log order, without sorting or scanning the table', () => {
    const db = new Database(':memory:');
    migrateSchema(db, DEFAULT_STORE_OPTIONS);
    for (const query of [...SHAPES, ...WHO_AND_WHAT]) {
      const { sql, params } = auditListing(query);
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((step) => step.detail);
      expect(plan, describeShape(query)).to.have.length(1);
      expect(plan[0], describeShape(query)).to.match(/ USING (COVERING )?INDEX audit_feed/);
      expect(plan.join(), describeShape(query)).to.not.match(/TEMP B-TREE/);
    }
    db.close();
  });

  it('MongoDB hints, for every listing, a declared index whose keys are its filters and then the log order', () => {
    const declared = auditEntrySchema.indexes().map(([key]) => JSON.stringify(key));
    for (const query of SHAPES) {
      const index = auditListingIndex(query);
      expect(declared, describeShape(query)).to.include(JSON.stringify(index));
      const filters = (['applicationId', 'action'] as const).filter((field) => query[field] !== undefined);
      expect(Object.keys(index), describeShape(query)).to.deep.equal([...filters, 'timestamp', 'entryId']);
      expect(Object.values(index).slice(-2), describeShape(query)).to.deep.equal([-1, -1]);
    }
  });

  it('MongoDB hints the target index, else the actor index, when a listing names them', () => {
    const declared = auditEntrySchema.indexes().map(([key]) => JSON.stringify(key));
    for (const query of WHO_AND_WHAT) {
      const index = auditListingIndex(query);
      expect(declared, describeShape(query)).to.include(JSON.stringify(index));
      expect(Object.keys(index), describeShape(query)).to.deep.equal([query.target !== undefined ? 'target' : 'actor', 'timestamp', 'entryId']);
    }
  });
});
