import { z } from 'zod';
import { LOGO_CONTENT_TYPES } from '../policy';
import type { Application, ApplicationLogo, VersionWithFiles } from '../store/models';
import { iso, isoOrNull, messageField, pagination, paginationResponse, timestamp } from './common';
import { presentVersion, versionResponse } from './versions';
import { strandedInstalls } from '../releases/signing-key-paths';

/** An application's logo: its type, size, SHA-256 (hex, also its ETag) and when it was set. */
export const applicationLogoResponse = z.object({
  contentType: z.enum(LOGO_CONTENT_TYPES),
  size: z.number().int(),
  sha256: z.string(),
  updatedAt: timestamp,
});

export function presentApplicationLogo(logo: ApplicationLogo | null): z.input<typeof applicationLogoResponse> | null {
  return logo && { contentType: logo.contentType, size: logo.size, sha256: logo.sha256, updatedAt: iso(logo.updatedAt) };
}

export const retiredSigningKeyResponse = z.object({
  kind: z.enum(['minisign', 'sparkle']),
  key: z.string(),
  /** For a minisign key, its key id (16 hex digits), which versions' signedUnder names; null for a Sparkle key. */
  keyId: z.string().nullable(),
  retiredAt: timestamp,
});

export const applicationResponse = z.object({
  applicationId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  tags: z.array(z.string()),
  customerIds: z.array(z.string()),
  /** The minisign public key in the form `tauri signer generate` prints, or null. */
  updateSigningKey: z.string().nullable(),
  /** Sparkle's EdDSA public key (the app's SUPublicEDKey, base64 of 32 bytes), or null. */
  sparklePublicKey: z.string().nullable(),
  /**
   * Keys replaced by a change of updateSigningKey (`minisign`) or sparklePublicKey (`sparkle`), oldest
   * retirement first: signatures under them still verify, and installs running a release signed under
   * one are offered only releases signed under it (a bridge release).
   */
  retiredSigningKeys: z.array(retiredSigningKeyResponse),
  /** The status of a version an upload creates without naming one: `draft` until published, or `published` at once. */
  defaultVersionStatus: z.enum(['draft', 'published']),
  /** The licence (Markdown) customers accept before downloading, and its revision; both null without one. */
  licenceText: z.string().nullable(),
  licenceRevision: z.number().int().nullable(),
  /** How the customer portal presents it: a name for people, an accent colour (#rrggbb), a support link; null when unset. */
  displayName: z.string().nullable(),
  accentColour: z.string().nullable(),
  supportUrl: z.string().nullable(),
  /** The portal's logo (PUT /v1/management/applications/{applicationId}/logo), or null. */
  logo: applicationLogoResponse.nullable(),
  isActive: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
  deletedAt: timestamp.nullable(),
});

export function presentApplication(app: Application): z.input<typeof applicationResponse> {
  return {
    applicationId: app.applicationId,
    name: app.name,
    description: app.description,
    tags: app.tags,
    customerIds: app.customerIds,
    updateSigningKey: app.updateSigningKey,
    sparklePublicKey: app.sparklePublicKey,
    retiredSigningKeys: app.retiredSigningKeys.map((key) => ({ kind: key.kind, key: key.key, keyId: key.kind === 'minisign' ? key.keyId : null, retiredAt: iso(key.retiredAt) })),
    defaultVersionStatus: app.defaultVersionStatus,
    licenceText: app.licenceText,
    // A licence removed keeps its last revision in the store (revisions never go back); it has none to show.
    licenceRevision: app.licenceText === null ? null : app.licenceRevision,
    displayName: app.displayName,
    accentColour: app.accentColour,
    supportUrl: app.supportUrl,
    logo: presentApplicationLogo(app.logo),
    isActive: app.isActive,
    createdAt: iso(app.createdAt),
    updatedAt: iso(app.updatedAt),
    deletedAt: isoOrNull(app.deletedAt),
  };
}

/** Installs left with no path forward by a signing-key change (shared/releases/signing-key-paths.ts). */
export const strandedInstallsResponse = z.object({
  kind: z.enum(['minisign', 'sparkle']),
  /** The retired key those installs trust, as versions' signedUnder names it. */
  keyId: z.string(),
  /** Versions customers were given whose installs are offered nothing more until a release signed under that key is published. */
  versions: z.array(z.string()),
});

export const applicationWithVersionsResponse = applicationResponse.extend({
  versions: z.array(versionResponse),
  /**
   * Warnings: per retired key, the versions whose installs trust it and have no newer published
   * release signed under it (publish a bridge release signed with that key); empty when none.
   */
  strandedInstalls: z.array(strandedInstallsResponse),
});

export function presentApplicationWithVersions(app: Application, versions: VersionWithFiles[]): z.input<typeof applicationWithVersionsResponse> {
  return { ...presentApplication(app), versions: versions.map((version) => presentVersion(version, app)), strandedInstalls: strandedInstalls(app, versions) };
}

export const applicationListResponse = z.object({ applications: z.array(applicationResponse), pagination: paginationResponse });

export function presentApplicationList(items: Application[], page: number, pageSize: number, total: number): z.input<typeof applicationListResponse> {
  return { applications: items.map(presentApplication), pagination: pagination(page, pageSize, total) };
}

export const deletedApplicationResponse = z.object({ message: messageField, applicationId: z.string(), deletedAt: timestamp });

export function presentDeletedApplication(app: Application): z.input<typeof deletedApplicationResponse> {
  return { message: `application ${app.applicationId} deleted`, applicationId: app.applicationId, deletedAt: isoOrNull(app.deletedAt) as string };
}

/**
 * An application as a customer sees it (the portal's list): what to call it and how to present it,
 * and whether its licence waits for this customer's acceptance. Never its customers, keys or settings.
 */
export const customerApplicationResponse = z.object({
  applicationId: z.string(),
  /** The display name when set, else the name. */
  name: z.string(),
  description: z.string().nullable(),
  accentColour: z.string().nullable(),
  supportUrl: z.string().nullable(),
  /** Where the logo is read with the customer's key or token (GET, the image itself); null when the application has none. */
  logoUrl: z.string().nullable(),
  licence: z.object({
    required: z.boolean(),
    revision: z.number().int().nullable(),
    /** This customer accepted this revision (true when none is required). */
    accepted: z.boolean(),
  }),
});

/** The customer route that answers an application's logo, under `baseUrl` (the caller's: a path token stays in it). */
export const customerLogoUrl = (baseUrl: string, applicationId: string): string =>
  `${baseUrl}/v1/downloads/applications/${encodeURIComponent(applicationId)}/logo`;

export function presentCustomerApplication(app: Application, accepted: boolean, baseUrl: string): z.input<typeof customerApplicationResponse> {
  const required = app.licenceText !== null && app.licenceRevision !== null;
  return {
    applicationId: app.applicationId,
    name: app.displayName ?? app.name,
    description: app.description,
    accentColour: app.accentColour,
    supportUrl: app.supportUrl,
    logoUrl: app.logo ? customerLogoUrl(baseUrl, app.applicationId) : null,
    licence: { required, revision: required ? app.licenceRevision : null, accepted: !required || accepted },
  };
}

export const customerApplicationListResponse = z.object({ applications: z.array(customerApplicationResponse), pagination: paginationResponse });
