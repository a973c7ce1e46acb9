import type Database from 'better-sqlite3';

/**
 * Prepares, on one connection, the fold of download events into daily counters. SQLite keeps one
 * rollup position (rollup_state: events are numbered in commit order) and moves it in the same
 * transaction as the counters, so a repeated or interrupted fold never counts an event twice. The
 * fold runs on the write thread (see background-writer.ts), or inline when that thread is gone.
 */
export function prepareRollup(db: Database.Database): (limit: number) => number {
  const position = db.prepare('SELECT last_seq FROM rollup_state WHERE id = 1');
  // The last event of the batch: the next `limit` download events after the position.
  const batchEnd = db.prepare(
    `SELECT max(seq) AS last_seq FROM (SELECT seq FROM events WHERE seq > ? AND type = 'download' ORDER BY seq LIMIT ?)`,
  );
  // The batch's events already counted per counter by SQLite: a batch has thousands of events and only a handful of counters.
  const inBatch = `FROM events WHERE seq > ? AND seq <= ? AND type = 'download'`;
  const day = `strftime('%Y-%m-%d', ts / 1000, 'unixepoch')`;
  const platformTotals = db.prepare(
    `SELECT application_id, version, platform AS key, ${day} AS date, count(*) AS count ${inBatch} GROUP BY application_id, version, platform, date`,
  );
  const archTotals = db.prepare(
    `SELECT application_id, version, arch AS key, ${day} AS date, count(*) AS count ${inBatch} GROUP BY application_id, version, arch, date`,
  );
  // Downloads through no customer (none are today, but the column allows it) have no customer counter.
  const customerTotals = db.prepare(
    `SELECT application_id, version, customer_id AS key, ${day} AS date, count(*) AS count ${inBatch} AND customer_id IS NOT NULL
     GROUP BY application_id, version, customer_id, date`,
  );
  const addCount = db.prepare(
    `INSERT INTO daily_counts (application_id, version, platform, date, count) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (application_id, date, version, platform) DO UPDATE SET count = count + excluded.count`,
  );
  const addArchCount = db.prepare(
    `INSERT INTO daily_arch_counts (application_id, version, arch, date, count) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (application_id, date, version, arch) DO UPDATE SET count = count + excluded.count`,
  );
  const addCustomerCount = db.prepare(
    `INSERT INTO daily_customer_counts (application_id, version, customer_id, date, count) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (application_id, date, version, customer_id) DO UPDATE SET count = count + excluded.count`,
  );
  const movePosition = db.prepare('INSERT INTO rollup_state (id, last_seq) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET last_seq = excluded.last_seq');
  type Total = { application_id: string; version: string; key: string; date: string; count: number };
  const add = (totals: Total[], counter: Database.Statement): number => {
    let added = 0;
    for (const t of totals) {
      counter.run(t.application_id, t.version, t.key, t.date, t.count);
      added += t.count;
    }
    return added;
  };
  // One transaction reads the position and the batch after it, adds the batch to every counter and
  // moves the position: all or nothing.
  const fold = db.transaction((limit: number): number => {
    const from = (position.get() as { last_seq: number } | undefined)?.last_seq ?? 0;
    const last = (batchEnd.get(from, limit) as { last_seq: number | null }).last_seq;
    if (last === null) return 0;
    const folded = add(platformTotals.all(from, last) as Total[], addCount);
    add(archTotals.all(from, last) as Total[], addArchCount);
    add(customerTotals.all(from, last) as Total[], addCustomerCount);
    movePosition.run(last);
    return folded;
  });
  return (limit) => fold.immediate(limit);
}
