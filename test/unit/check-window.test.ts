import { expect } from 'chai';
import { CheckWindow } from '../../shared/events/check-window';
import { at, checkEvent } from '../support/records';

describe('check window', () => {
  it('gives back the checks pushed, in order, with every field', () => {
    const checks = [
      checkEvent('c_1'),
      checkEvent('c_2', { applicationId: 'app_2', customerId: 'cust_2', client: 'tauri', platform: 'windows', arch: 'arm64', channel: 'beta', timestamp: at(5) }),
      checkEvent('c_3', { runningVersion: '2.0.0', offeredVersion: '2.1.0', installId: 'staging-3', installHash: 'hash_shared' }),
      // A value seen in another field is coded once, and still given back in the right field.
      checkEvent('c_4', { channel: 'app_2', offeredVersion: null, installHash: 'hash_shared', timestamp: at(1) }),
    ];
    const window = new CheckWindow();
    for (const check of checks) window.push(check);
    expect(window.length).to.equal(4);
    expect(window.events()).to.deep.equal(checks);
  });

  it('is empty until a check is pushed', () => {
    expect(new CheckWindow().events()).to.deep.equal([]);
    expect(new CheckWindow().length).to.equal(0);
  });
});
