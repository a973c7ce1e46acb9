import { expect } from 'chai';
import { checkColumns, forEachCheckRow } from '../../shared/store/sqlite/check-columns';
import type { CheckRow } from '../../shared/store/sqlite/event-writes';
import { at, checkEvent } from '../support/records';

describe('check columns (update checks as they cross to the SQLite write thread)', () => {
  it('gives back every check as its row, each distinct repeated value listed once', () => {
    const checks = [
      checkEvent('c_1'),
      checkEvent('c_2', { installId: 'ïd-2', offeredVersion: '2.0.0', timestamp: at(3) }),
      checkEvent('c_3', { installId: '', customerId: 'cust_2', runningVersion: '2.0.0', installHash: 'h_é' }),
    ];
    const columns = checkColumns(checks);
    expect(columns.values).to.deep.equal(['app_1', 'cust_1', 'electron-updater', 'linux', 'x64', 'stable', '1.0.0', null, '2.0.0', 'cust_2']);
    const rows: CheckRow[] = [];
    forEachCheckRow(columns, (row) => rows.push([...row] as CheckRow));
    expect(rows).to.deep.equal(checks.map((e) => [
      e.eventId, e.applicationId, e.customerId, e.client, e.platform, e.arch, e.channel, e.runningVersion, e.offeredVersion, e.installId, e.installHash, e.timestamp.getTime(),
    ]));
  });

  it('holds no check for an empty window', () => {
    const rows: CheckRow[] = [];
    forEachCheckRow(checkColumns([]), (row) => rows.push(row));
    expect(rows).to.deep.equal([]);
  });
});
