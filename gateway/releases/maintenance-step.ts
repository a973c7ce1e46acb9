import { BoundedMap } from '../../shared/cache/bounded-map';
import { ENTITLED_LISTS_PER_OFFER_LIST } from '../../shared/policy';
import { Entitlement, entitlementKey, entitles } from '../../shared/releases/maintenance-window';
import type { Version } from '../../shared/store/models';

/**
 * The catalogue's maintenance-window step (shared/releases/maintenance-window.ts): an offered list cut
 * to the releases an entitlement admits. The cut is kept with the list (dropped with the catalogue's
 * records) per distinct entitlement, so callers under one window share one list object, and what the
 * feeds derive from it, as callers without a window do.
 */
export class MaintenanceStep<L extends object> {
  private readonly cuts = new WeakMap<L, BoundedMap<string, L>>();

  constructor(private readonly cut: (list: L, admits: (version: Version) => boolean) => L) {}

  within(list: L, entitlement: Entitlement): L {
    let byWindow = this.cuts.get(list);
    if (!byWindow) {
      byWindow = new BoundedMap(ENTITLED_LISTS_PER_OFFER_LIST);
      this.cuts.set(list, byWindow);
    }
    const key = entitlementKey(entitlement);
    let cut = byWindow.get(key);
    if (!cut) {
      cut = this.cut(list, (version) => entitles(entitlement, version));
      byWindow.set(key, cut);
    }
    return cut;
  }
}
