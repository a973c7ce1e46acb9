import { z } from 'zod';

/** Field rules shared by several endpoints. */
export const applicationIdField = z
  .string()
  .max(64, 'must be at most 64 characters')
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be lowercase letters and digits in words separated by single hyphens');

/** Free-form version strings: printable ASCII without '/' or spaces, so they fit in a URL path segment. */
export const versionField = z
  .string()
  .min(1, 'must not be empty')
  .max(128, 'must be at most 128 characters')
  .regex(/^[\x21-\x2e\x30-\x7e]+$/, "must be printable characters without spaces or '/'");

/** A file name, not a path. */
export const fileNameField = z
  .string()
  .min(1, 'must not be empty')
  .max(255, 'must be at most 255 characters')
  .refine((name) => !/[/\\\x00-\x1f\x7f]/.test(name) && name !== '.' && name !== '..', 'must be a file name without path separators or control characters');

export const contentTypeField = z
  .string()
  .max(255)
  .regex(/^[\w.+-]+\/[\w.+-]+(\s*;\s*[\w.+-]+=("[^"]*"|[\w.+-]+))*$/, 'must be a MIME type such as application/octet-stream');

export const releaseNotesField = z.string().max(20_000, 'must be at most 20000 characters');

export const tierField = (tiers: readonly string[]) =>
  z.string().refine((t) => tiers.includes(t), `must be one of ${tiers.join(', ')}`);

export const nameField = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');

/** Refuses a PATCH body that changes nothing. */
export const notEmpty = (body: object) => Object.keys(body).length > 0;
