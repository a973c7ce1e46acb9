import { z } from 'zod';
import { renderMarkdown } from '../markdown';
import type { Application, LicenceAcceptance } from '../store/models';
import { isoOrNull, iso, timestamp } from './common';

/**
 * An application's licence as a customer reads it: whether one is required, its revision, its
 * Markdown and that Markdown rendered as sanitized HTML (shared/markdown.ts), and whether this
 * customer has accepted this revision.
 */
export const licenceResponse = z.object({
  applicationId: z.string(),
  /** false when the application has no licence: its downloads are not gated. */
  required: z.boolean(),
  revision: z.number().int().nullable(),
  text: z.string().nullable(),
  html: z.string().nullable(),
  /** Accepted by this customer in this revision (true when none is required). */
  accepted: z.boolean(),
  acceptedAt: timestamp.nullable(),
});

/** Rendered once per application record: the catalogue's records are replaced on every change. */
const renderedLicences = new WeakMap<Application, string>();

function licenceHtml(application: Application, text: string): string {
  let html = renderedLicences.get(application);
  if (html === undefined) {
    html = renderMarkdown(text);
    renderedLicences.set(application, html);
  }
  return html;
}

export function presentLicence(application: Application, acceptance: LicenceAcceptance | null): z.input<typeof licenceResponse> {
  const { licenceText: text, licenceRevision: revision } = application;
  const required = text !== null && revision !== null;
  return {
    applicationId: application.applicationId,
    required,
    revision: required ? revision : null,
    text: required ? text : null,
    html: required ? licenceHtml(application, text) : null,
    accepted: !required || acceptance !== null,
    acceptedAt: isoOrNull(acceptance?.acceptedAt ?? null),
  };
}

export const licenceAcceptanceResponse = z.object({
  applicationId: z.string(),
  customerId: z.string(),
  revision: z.number().int(),
  /** When this revision was first accepted: accepting again changes nothing. */
  acceptedAt: timestamp,
});

export function presentLicenceAcceptance(acceptance: LicenceAcceptance): z.input<typeof licenceAcceptanceResponse> {
  return { applicationId: acceptance.applicationId, customerId: acceptance.customerId, revision: acceptance.revision, acceptedAt: iso(acceptance.acceptedAt) };
}
