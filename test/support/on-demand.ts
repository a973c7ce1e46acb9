/**
 * A file of a tool the tests install on demand (scripts/ensure-update-clients.sh, which `npm test`
 * runs), resolved when first needed: missing, the failure says how to install it.
 */
export function onDemandFile(specifier: string): string {
  try {
    return require.resolve(specifier);
  } catch {
    throw new Error(`${specifier} is not installed: the tests install it on demand, run bash scripts/ensure-update-clients.sh (npm test does)`);
  }
}
