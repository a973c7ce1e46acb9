import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { CheckEvent } from '../../shared/store/models';
import { CHECK_LAYOUT, type CheckColumns, type CheckLayout, checkEventsOf, checksIn, CODED_FIELDS, TEXT_FIELDS } from '../../shared/store/sqlite/check-columns';
import { decodeWindow, encodeWindow, readStoredChecks, WINDOW_FORMAT, windowKey } from '../../shared/store/sqlite/check-windows';
import { SqliteStore } from '../../shared/store/sqlite/sqlite-store';
import { columnsInLayout, type WindowCheck } from '../support/check-windows';
import { at, checkEvent } from '../support/records';

/**
 * Windows written by the code before the format byte, kept as that code wrote them (V8's
 * serialization of the columns, no byte, no layout): three checks from at(0), then two from at(3).
 */
const FIXTURES = path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'check-windows');
const PREVIOUS_FORMAT_WINDOWS = ['v0-first.bin', 'v0-second.bin'].map((name) => fs.readFileSync(path.join(FIXTURES, name)));
/** The checks those windows hold, in the order written. */
const PREVIOUS_FORMAT_CHECKS: CheckEvent[] = [
  checkEvent('v0_1', { installId: 'staging-1', offeredVersion: '2.0.0', timestamp: at(0) }),
  checkEvent('v0_2', { customerId: 'cust_2', runningVersion: '1.5.0', client: 'tauri', platform: 'windows', arch: 'arm64', timestamp: at(1) }),
  checkEvent('v0_3', { installHash: 'hash_v0_1', channel: 'beta', offeredVersion: '2.0.0', timestamp: at(2) }),
  checkEvent('v0_4', { installId: 'staging-4', timestamp: at(3) }),
  checkEvent('v0_5', { applicationId: 'app_2', runningVersion: '3.0.0', timestamp: at(4) }),
];

const CHECK_FIELDS = [...CODED_FIELDS, ...TEXT_FIELDS];

interface StoredWindow {
  first_seq: number;
  checks: number;
  body: Buffer;
}

/** A SQLite store on a fresh file whose check_windows hold `windows` (bodies as given) before it opens; each test's own. */
function storeWithWindows(): { open(windows: Buffer[]): Promise<SqliteStore>; rows(): StoredWindow[] } {
  let dir: string;
  let store: SqliteStore | undefined;
  const file = () => path.join(dir, 'store.sqlite');
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-check-window-format-'));
  });
  afterEach(async () => {
    await store?.close();
    store = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    async open(windows) {
      await new SqliteStore(file()).close();
      const db = new Database(file());
      const insert = db.prepare('INSERT INTO check_windows (first_seq, checks, first_ts, window_key, body) VALUES (?, ?, ?, ?, ?)');
      let seq = 1;
      for (const body of windows) {
        const columns = decodeWindow(body);
        insert.run(seq, checksIn(columns), columns.timestamps[0], windowKey(columns), body);
        seq += checksIn(columns);
      }
      db.close();
      store = new SqliteStore(file());
      return store;
    },
    rows() {
      const db = new Database(file(), { readonly: true });
      try {
        return db.prepare('SELECT first_seq, checks, body FROM check_windows ORDER BY first_seq').all() as StoredWindow[];
      } finally {
        db.close();
      }
    },
  };
}

function storedChecks(rows: StoredWindow[]): [number, string | number | null][] {
  const db = new Database(':memory:');
  try {
    db.exec('CREATE TABLE check_windows (first_seq INTEGER PRIMARY KEY, body BLOB NOT NULL)');
    const insert = db.prepare('INSERT INTO check_windows (first_seq, body) VALUES (?, ?)');
    for (const row of rows) insert.run(row.first_seq, row.body);
    return readStoredChecks(db).map((check) => [check.seq as number, check.event_id]);
  } finally {
    db.close();
  }
}

/** Every check's fields as the store gives them back, by event id. */
function asStored(checks: readonly CheckEvent[]): Map<string, CheckEvent> {
  return new Map(checks.map((check) => [check.eventId, check]));
}

describe('SQLite check windows: the format byte, and windows of earlier formats and layouts', () => {
  const windows = storeWithWindows();

  it('writes each window as the format byte, then the columns with their layout', async () => {
    const store = await windows.open([]);
    const window = store.adoption.openCheckWindow(4);
    window.push(checkEvent('c_1'));
    window.push(checkEvent('c_2', { installId: 'staging-2' }));
    await window.write();
    const [row] = windows.rows();
    expect(row.body[0]).to.equal(WINDOW_FORMAT);
    expect(decodeWindow(row.body).layout).to.deep.equal(CHECK_LAYOUT);
  });

  it('refuses to read a window in a format it does not know, rather than misread it', () => {
    const body = encodeWindow(columnsInLayout(CHECK_LAYOUT, []));
    body[0] = WINDOW_FORMAT + 1;
    expect(() => decodeWindow(body)).to.throw(/format 2/);
  });

  it('reads, rolls up, hands to the funnel and purges windows written before the format byte, and a purge rewrites them in the current format', async () => {
    // As the previous code stored them: V8's serialization straight away, which starts with its version tag.
    expect(PREVIOUS_FORMAT_WINDOWS.map((body) => body[0])).to.deep.equal([0xff, 0xff]);
    const store = await windows.open(PREVIOUS_FORMAT_WINDOWS);
    const now = store.adoption.openCheckWindow(10);
    const written = [checkEvent('c_6', { timestamp: at(5) }), checkEvent('c_7', { installHash: 'hash_v0_1', timestamp: at(6) })];
    for (const check of written) now.push(check);
    await now.write();

    const funnel = await store.funnel.readFunnelChecks(100);
    expect(funnel?.events).to.deep.equal([...PREVIOUS_FORMAT_CHECKS, ...written]);
    await store.funnel.finishFunnelChecks(funnel!.position);
    const batch = await store.adoption.claimCheckBatch(100);
    expect(batch?.checks).to.equal(7);
    expect(batch?.groups.map((g) => [g.applicationId, g.channel, g.platform, g.arch, g.runningVersion, g.checks, g.installHashes])).to.deep.equal([
      ['app_1', 'beta', 'linux', 'x64', '1.0.0', 1, ['hash_v0_1']],
      ['app_1', 'stable', 'linux', 'x64', '1.0.0', 4, ['hash_c_6', 'hash_v0_1', 'hash_v0_4']],
      ['app_1', 'stable', 'windows', 'arm64', '1.5.0', 1, ['hash_v0_2']],
      ['app_2', 'stable', 'linux', 'x64', '3.0.0', 1, ['hash_v0_5']],
    ]);
    expect(await store.adoption.finishCheckBatch(batch!.batchId, [], [])).to.equal(true);

    // The first window loses its two checks before at(2): rewritten from its third, which keeps its number.
    expect(await store.adoption.purgeCheckEvents(at(2), 100)).to.equal(2);
    const rows = windows.rows();
    expect(rows.map((row) => [row.first_seq, row.checks, row.body[0]])).to.deep.equal([[3, 1, WINDOW_FORMAT], [4, 2, 0xff], [6, 2, WINDOW_FORMAT]]);
    expect(storedChecks(rows)).to.deep.equal([[3, 'v0_3'], [4, 'v0_4'], [5, 'v0_5'], [6, 'c_6'], [7, 'c_7']]);
    const kept = decodeWindow(rows[0].body);
    expect(kept.layout).to.deep.equal(CHECK_LAYOUT);
    expect(asStored(readAll(rows)).get('v0_3')).to.deep.equal(PREVIOUS_FORMAT_CHECKS[2]);

    // Then the rest of the old windows, and the current one's first check (before at(6)).
    expect(await store.adoption.purgeCheckEvents(at(6), 100)).to.equal(4);
    expect(storedChecks(windows.rows())).to.deep.equal([[7, 'c_7']]);
  });

  /**
   * A coded field added to CHECK_LAYOUT, or one dropped, changes how many codes a check has and where
   * each field is. Windows written before such a change are read by their own layout: here one written
   * without `client` and `offeredVersion` (as before they were coded) and one with a field this code does
   * not know, in the middle of the codes (as after a field is added).
   */
  it('reads every field by the window\'s own layout: a window with fewer coded fields and one with a field unknown here, rollup, funnel and purge alike', async () => {
    const fewer: CheckLayout = {
      coded: ['applicationId', 'customerId', 'platform', 'arch', 'channel', 'runningVersion'],
      texts: ['eventId', 'installHash', 'installId'],
    };
    const more: CheckLayout = {
      coded: ['applicationId', 'customerId', 'client', 'osVersion', 'platform', 'arch', 'channel', 'runningVersion', 'offeredVersion'],
      texts: ['eventId', 'installId', 'installHash', 'deviceModel'],
    };
    const stored = (eventId: string, fields: Partial<WindowCheck> = {}, minutes = 0): WindowCheck => ({
      eventId, applicationId: 'app_1', customerId: 'cust_1', client: 'tauri', platform: 'linux', arch: 'x64', channel: 'stable',
      runningVersion: '1.0.0', offeredVersion: null, installId: null, installHash: `hash_${eventId}`, osVersion: '14.2', deviceModel: 'Mac14,2',
      ...fields, timestampMs: at(minutes).getTime(),
    });
    const older = [stored('f_1', { installId: 'staging-1' }, 0), stored('f_2', { runningVersion: '2.0.0', channel: 'beta' }, 1), stored('f_3', {}, 2)];
    const newer = [
      stored('m_1', { osVersion: '15.0', offeredVersion: '2.0.0', installId: 'staging-9' }, 3),
      stored('m_2', { runningVersion: '2.0.0', channel: 'beta', osVersion: '13.1', deviceModel: null }, 4),
      stored('m_3', { installHash: 'hash_f_1' }, 5),
    ];
    const store = await windows.open([encodeWindow(columnsInLayout(fewer, older)), encodeWindow(columnsInLayout(more, newer))]);

    const event = (check: WindowCheck, absent: Partial<CheckEvent> = {}): CheckEvent => ({
      ...(Object.fromEntries(CHECK_FIELDS.map((field) => [field, check[field]])) as Omit<CheckEvent, 'timestamp'>),
      timestamp: new Date(check.timestampMs), ...absent,
    });
    const funnel = await store.funnel.readFunnelChecks(100);
    // The fields a window does not hold read as null; those this code does not know are not read.
    expect(funnel?.events).to.deep.equal([...older.map((c) => event(c, { client: null as unknown as CheckEvent['client'], offeredVersion: null })), ...newer.map((c) => event(c))]);
    await store.funnel.finishFunnelChecks(funnel!.position);
    const batch = await store.adoption.claimCheckBatch(100);
    expect(batch?.groups.map((g) => [g.channel, g.runningVersion, g.checks, g.installHashes])).to.deep.equal([
      ['beta', '2.0.0', 2, ['hash_f_2', 'hash_m_2']],
      ['stable', '1.0.0', 4, ['hash_f_1', 'hash_f_3', 'hash_m_1']],
    ]);
    await store.adoption.finishCheckBatch(batch!.batchId, [], []);

    // Each window loses its first check: rewritten in the current format, each with the layout it had and its other fields kept.
    expect(await store.adoption.purgeCheckEvents(at(4), 100)).to.equal(4);
    const rows = windows.rows();
    expect(rows.map((row) => [row.first_seq, row.checks, row.body[0]])).to.deep.equal([[5, 2, WINDOW_FORMAT]]);
    const kept = decodeWindow(rows[0].body);
    expect(kept.layout).to.deep.equal(more);
    expect(kept).to.deep.equal(rewritten(columnsInLayout(more, newer.slice(1)), kept.values));
    expect(storedChecks(rows)).to.deep.equal([[5, 'm_2'], [6, 'm_3']]);
  });
});

function readAll(rows: StoredWindow[]): CheckEvent[] {
  return rows.flatMap((row) => checkEventsOf(decodeWindow(row.body)));
}

/**
 * `expected` with the window's values list: a purge keeps a window's values as they were (a value
 * only its removed checks used stays listed), so codes are compared through the values they name.
 */
function rewritten(expected: CheckColumns, values: (string | null)[]): CheckColumns {
  const codes = Uint32Array.from(expected.codes, (code) => values.indexOf(expected.values[code]));
  return { ...expected, values, codes };
}
