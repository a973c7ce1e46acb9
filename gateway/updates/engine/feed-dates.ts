import type { Version } from '../../../shared/store/models';

/**
 * When the version was published, to the second with a `Z`: the one form both Squirrel.Mac
 * (`yyyy-MM-dd'T'HH:mm:ssZZZZZ`, no fractions) and Tauri (RFC 3339) read.
 */
export function feedDate(version: Version): string {
  return `${(version.publishedAt ?? version.createdAt).toISOString().slice(0, 19)}Z`;
}
