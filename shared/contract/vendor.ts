import { z } from 'zod';

/** Who distributes here, for pages shown before anyone signs in: the portal's sign-in, a share link's error page. */
export const vendorResponse = z.object({
  /** VENDOR_NAME; null when unset. */
  name: z.string().nullable(),
  /** Where the vendor's logo is (GET, no key); null without one. */
  logoUrl: z.string().nullable(),
});

export const VENDOR_LOGO_PATH = '/v1/vendor/logo';

export function presentVendor(vendor: { name: string | null; logoFile: string | null }): z.input<typeof vendorResponse> {
  return { name: vendor.name, logoUrl: vendor.logoFile ? VENDOR_LOGO_PATH : null };
}
