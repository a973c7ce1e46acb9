// PROVISIONAL until the customer-side applications listing lands: replaced by its contract type.
export const portalApplicationsPath = '/v1/downloads/applications';
export interface PortalApplication {
  applicationId: string;
  name: string;
  branding?: { displayName: string | null; accentColour: string | null; logoUrl: string | null; supportUrl: string | null } | null;
}
export interface PortalApplicationList {
  applications: PortalApplication[];
}
