/** Tier ordering from configuration (lowest first): a customer may use a version at or below their tier. */
export function tierAllows(tiers: readonly string[], customerTier: string, requiredTier: string | null | undefined): boolean {
  if (!requiredTier) return true;
  const required = tiers.indexOf(requiredTier);
  const actual = tiers.indexOf(customerTier);
  // A tier no longer configured grants nothing beyond public versions, and requires the highest.
  if (actual === -1) return false;
  if (required === -1) return actual === tiers.length - 1;
  return actual >= required;
}
