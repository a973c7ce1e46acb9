import type { ReleaseStatus } from '../../releases/lifecycle';
import { DEFAULT_UPLOAD_STATUS } from '../../releases/lifecycle';
import type { StoreOptions } from '../options';

/**
 * Filters on the fields versions gained with the release model. A version stored before them has
 * none until `npm run migrate` fills them in, and reads as published in the default channel, so
 * a filter selecting that default also selects documents without the field ($in null matches both).
 */
export function channelFilter(channels: readonly string[], options: StoreOptions): { $in: (string | null)[] } {
  return anyOf(channels, options.defaultChannel);
}

export function statusFilter(statuses: readonly ReleaseStatus[]): { $in: (string | null)[] } {
  return anyOf(statuses, DEFAULT_UPLOAD_STATUS);
}

function anyOf(values: readonly string[], legacyDefault: string): { $in: (string | null)[] } {
  return { $in: values.includes(legacyDefault) ? [...values, null] : [...values] };
}
