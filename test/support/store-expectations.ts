import { expect } from 'chai';
import { DuplicateError } from '../../shared/errors';
import type { Platform } from '../../shared/releases/platforms';
import type { DailyCount } from '../../shared/store/models';
import { rejectionOf } from './rejection';

/** Fails unless `promise` rejects with a DuplicateError naming `target`. */
export async function expectDuplicate(promise: Promise<unknown>, target: string): Promise<void> {
  const error = await rejectionOf(promise);
  expect(error).to.be.instanceOf(DuplicateError);
  expect((error as DuplicateError).target).to.equal(target);
}

/** One daily download counter as the store lists it. */
export const daily = (applicationId: string, version: string, date: string, count: number, platform: Platform = 'any'): DailyCount =>
  ({ applicationId, version, platform, date, count });

export const versionNames = (versions: { version: string }[]) => versions.map((v) => v.version);

/** Versions an earlier version order keyed as free-form: SemVer with a number past 2^53 and a prerelease or build metadata. */
export const KEYED_AS_FREE_FORM = ['99999999999999999999999.0.0-rc.1', '1.2.99999999999999999999+build.7'];
/** What listings show once every key is this release's. */
export const REKEYED_ORDER = ['99999999999999999999999.0.0-rc.1', '1.2.99999999999999999999+build.7', '1.1.0', 'nightly'];
/** The key an earlier version order gave a free-form version. */
export const EARLIER_FREE_FORM_KEY = '0';
