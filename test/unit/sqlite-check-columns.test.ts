import { expect } from 'chai';
import { CheckColumnsBuilder, checkColumns, checkEventsOf, forEachCheckHash } from '../../shared/store/sqlite/check-columns';
import { at, checkEvent } from '../support/records';

describe('check columns (a write window of update checks)', () => {
  it('gives back the checks pushed, in order, with every field', () => {
    const checks = [
      checkEvent('c_1'),
      checkEvent('c_2', { applicationId: 'app_2', customerId: 'cust_2', client: 'tauri', platform: 'windows', arch: 'arm64', channel: 'beta', timestamp: at(5) }),
      checkEvent('c_3', { runningVersion: '2.0.0', offeredVersion: '2.1.0', installId: 'staging-3', installHash: 'hash_shared' }),
      // A value seen in another field is coded once, and still given back in the right field.
      checkEvent('c_4', { channel: 'app_2', offeredVersion: null, installId: '', installHash: 'hash_shared', timestamp: at(1) }),
    ];
    const builder = new CheckColumnsBuilder(10);
    for (const check of checks) builder.push(check);
    expect(builder.length).to.equal(4);
    const columns = builder.columns();
    // Cut to the checks pushed: the arrays cross to the write thread whole.
    expect([columns.codes.length, columns.lengths.length, columns.timestamps.length]).to.deep.equal([32, 12, 4]);
    expect(checkEventsOf(columns)).to.deep.equal(checks);
  });

  it('refuses a check beyond its capacity, and keeps those it holds', () => {
    const builder = new CheckColumnsBuilder(1);
    builder.push(checkEvent('c_1'));
    expect(() => builder.push(checkEvent('c_2'))).to.throw(RangeError);
    expect(checkEventsOf(builder.columns()).map((e) => e.eventId)).to.deep.equal(['c_1']);
  });

  it('grows past its first room up to its capacity, every check kept in order', () => {
    const checks = Array.from({ length: 700 }, (_, i) => checkEvent(`c_${i}`, { runningVersion: `1.${i % 3}.0`, timestamp: at(i % 5) }));
    const builder = new CheckColumnsBuilder(700);
    for (const check of checks) builder.push(check);
    const columns = builder.columns();
    expect([columns.codes.length, columns.lengths.length, columns.timestamps.length]).to.deep.equal([5600, 2100, 700]);
    expect(checkEventsOf(columns)).to.deep.equal(checks);
    expect(() => builder.push(checkEvent('c_700'))).to.throw(RangeError);
  });

  it('codes a value that repeats, changes and comes back, null included, as the checks had it', () => {
    const checks = [
      checkEvent('c_1', { offeredVersion: null, channel: 'stable' }),
      checkEvent('c_2', { offeredVersion: null, channel: 'stable' }),
      checkEvent('c_3', { offeredVersion: '2.0.0', channel: 'beta' }),
      checkEvent('c_4', { offeredVersion: null, channel: 'stable' }),
      checkEvent('c_5', { offeredVersion: '2.0.0', channel: 'beta' }),
    ];
    expect(checkEventsOf(checkColumns(checks))).to.deep.equal(checks);
  });

  it('is empty until a check is pushed', () => {
    expect(checkEventsOf(new CheckColumnsBuilder(3).columns())).to.deep.equal([]);
    expect(new CheckColumnsBuilder(3).length).to.equal(0);
  });

  it('gives back every check, each distinct repeated value listed once, and each install hash with its time', () => {
    const checks = [
      checkEvent('c_1'),
      checkEvent('c_2', { installId: 'ïd-2', offeredVersion: '2.0.0', timestamp: at(3) }),
      checkEvent('c_3', { installId: '', customerId: 'cust_2', runningVersion: '2.0.0', installHash: 'h_é' }),
    ];
    const columns = checkColumns(checks);
    expect(columns.values).to.deep.equal(['app_1', 'cust_1', 'electron-updater', 'linux', 'x64', 'stable', '1.0.0', null, '2.0.0', 'cust_2']);
    expect(checkEventsOf(columns)).to.deep.equal(checks);
    const hashes: [string, number, number][] = [];
    forEachCheckHash(columns, (installHash, ms, codeAt) => hashes.push([installHash, ms, codeAt]), 1);
    expect(hashes).to.deep.equal([['hash_c_2', at(3).getTime(), 8], ['h_é', at(0).getTime(), 16]]);
  });

  it('holds no check for an empty window', () => {
    expect(checkEventsOf(checkColumns([]))).to.deep.equal([]);
  });
});
