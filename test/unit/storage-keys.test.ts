import { expect } from 'chai';
import { contentStorageKey, fileStorageKey, isContentStorageKey, logoStorageKey, stagingStorageKey } from '../../shared/uploads/storage-keys';

describe('object storage keys', () => {
  const hex = 'ab'.repeat(32);

  it('addresses a verified file by its SHA-256 within its application', () => {
    expect(contentStorageKey('app_1', hex)).to.equal(`files/app_1/sha256/${hex}`);
    expect(isContentStorageKey(contentStorageKey('app_1', hex))).to.equal(true);
  });

  it('tells a content-addressed object from a file\'s own key, a staging key and a logo', () => {
    for (const key of [fileStorageKey('app_1', 'fil_1'), stagingStorageKey('upl_1'), logoStorageKey('app_1', hex),
      `files/app_1/sha256/${'AB'.repeat(32)}`, `files/app_1/sha256/${hex.slice(1)}`, `files/app_1/sha256/${hex}/x`, `files/sha256/${hex}`]) {
      expect(isContentStorageKey(key), key).to.equal(false);
    }
  });
});
