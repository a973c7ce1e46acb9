import type Database from 'better-sqlite3';

/**
 * Prepares, on one connection, the fold of download events into daily counters. SQLite keeps one
 * rollup position (rollup_state: events are numbered in commit order) and moves it in the same
 * transaction as the counters, so a repeated or interrupted fold never counts an event twice. The
 * fold runs on the write thread (see background-writer.ts), or inline when that thread is gone.
 */
export function prepareRollup(db: Database.Database): (limit: number) => number {
  const position = db.prepare('SELECT last_seq FROM rollup_state WHERE id = 1');
  // The next `limit` download events after the position, already counted per application, version,
  // platform and UTC day by SQLite: a batch has thousands of events and only a handful of counters.
  const batchTotals = db.prepare(
    `SELECT application_id, version, platform, strftime('%Y-%m-%d', ts / 1000, 'unixepoch') AS date, count(*) AS count, max(seq) AS last_seq
     FROM (SELECT seq, application_id, version, platform, ts FROM events WHERE seq > ? AND type = 'download' ORDER BY seq LIMIT ?)
     GROUP BY application_id, version, platform, date`,
  );
  const addCount = db.prepare(
    `INSERT INTO daily_counts (application_id, version, platform, date, count) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (application_id, date, version, platform) DO UPDATE SET count = count + excluded.count`,
  );
  const movePosition = db.prepare('INSERT INTO rollup_state (id, last_seq) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET last_seq = excluded.last_seq');
  // One transaction reads the position and the batch after it, adds the batch to the counters and
  // moves the position: all or nothing.
  const fold = db.transaction((limit: number): number => {
    const from = (position.get() as { last_seq: number } | undefined)?.last_seq ?? 0;
    const totals = batchTotals.all(from, limit) as
      { application_id: string; version: string; platform: string; date: string; count: number; last_seq: number }[];
    if (totals.length === 0) return 0;
    let folded = 0;
    let last = from;
    for (const t of totals) {
      addCount.run(t.application_id, t.version, t.platform, t.date, t.count);
      folded += t.count;
      last = Math.max(last, t.last_seq);
    }
    movePosition.run(last);
    return folded;
  });
  return (limit) => fold.immediate(limit);
}
