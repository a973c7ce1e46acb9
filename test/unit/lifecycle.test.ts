import { expect } from 'chai';
import {
  customerAnswerFor,
  DEFAULT_UPLOAD_STATUS,
  isOfferedToCustomers,
  isReleaseStatus,
  publishedAtAfter,
  RELEASE_STATUSES,
  ReleaseStatus,
  statusChange,
} from '../../shared/releases/lifecycle';

describe('release lifecycle', () => {
  it('has three statuses, uploads publishing unless they say draft', () => {
    expect(RELEASE_STATUSES).to.deep.equal(['draft', 'published', 'yanked']);
    expect(DEFAULT_UPLOAD_STATUS).to.equal('published');
    for (const status of RELEASE_STATUSES) expect(isReleaseStatus(status)).to.equal(true);
    for (const other of ['Draft', 'deleted', 'live', '', 'toString']) expect(isReleaseStatus(other), other).to.equal(false);
  });

  describe('transitions', () => {
    const table: Array<[ReleaseStatus, ReleaseStatus, ReturnType<typeof statusChange>]> = [
      ['draft', 'draft', 'unchanged'],
      ['draft', 'published', 'allowed'],
      ['draft', 'yanked', 'invalid'],
      ['published', 'draft', 'invalid'],
      ['published', 'published', 'unchanged'],
      ['published', 'yanked', 'allowed'],
      ['yanked', 'draft', 'invalid'],
      ['yanked', 'published', 'allowed'],
      ['yanked', 'yanked', 'unchanged'],
    ];
    for (const [from, to, change] of table) {
      it(`${from} → ${to}: ${change}`, () => expect(statusChange(from, to)).to.equal(change));
    }
    it('covers every pair', () => expect(table).to.have.length(RELEASE_STATUSES.length ** 2));
  });

  it('sets publishedAt when a version is first published and keeps it through yank and un-yank', () => {
    const first = new Date('2025-01-01T00:00:00Z');
    const later = new Date('2025-02-01T00:00:00Z');
    expect(publishedAtAfter(null, 'draft', first)).to.equal(null);
    expect(publishedAtAfter(null, 'published', first)).to.equal(first);
    expect(publishedAtAfter(first, 'yanked', later)).to.equal(first);
    expect(publishedAtAfter(first, 'published', later)).to.equal(first);
  });

  it('tells customers: drafts do not exist, yanked versions are gone, and only published ones are offered', () => {
    expect(RELEASE_STATUSES.map(customerAnswerFor)).to.deep.equal(['not-found', 'available', 'gone']);
    expect(RELEASE_STATUSES.map(isOfferedToCustomers)).to.deep.equal([false, true, false]);
  });
});
