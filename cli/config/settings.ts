import { UsageError } from '../errors';
import { DEFAULT_PROFILE, readProfile } from './profiles';

/** Where the CLI talks to and with which key: BDS_URL and BDS_API_KEY first, else the profile. */
export interface Settings {
  baseUrl: string;
  apiKey: string;
}

export function profileName(option: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return option ?? env.BDS_PROFILE ?? DEFAULT_PROFILE;
}

export function resolveSettings(profileOption: string | undefined, env: NodeJS.ProcessEnv = process.env): Settings {
  const name = profileName(profileOption, env);
  const profile = env.BDS_URL && env.BDS_API_KEY ? undefined : readProfile(name);
  const baseUrl = env.BDS_URL ?? profile?.url;
  const apiKey = env.BDS_API_KEY ?? profile?.apiKey;
  if (!baseUrl || !apiKey) {
    throw new UsageError(`no service configured: set BDS_URL and BDS_API_KEY, or run bds login${name === DEFAULT_PROFILE ? '' : ` --profile ${name}`}`);
  }
  return { baseUrl: normalizeBaseUrl(baseUrl), apiKey };
}

/** Customer keys are `<customerId>.<secret>`; admin keys hold no dot. */
export const keyKind = (key: string): 'customer' | 'admin' => (key.includes('.') ? 'customer' : 'admin');

/**
 * An http(s) URL without a trailing slash; the API paths (/v1/...) are appended to it, so a URL
 * given with /v1 at its end (copied from an API path) is taken without it.
 */
export function normalizeBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${value} is not a URL (expected e.g. https://downloads.example.com)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${value} is not an http or https URL`);
  if (url.search || url.hash) throw new UsageError(`${value}: give the service's base URL, without a query or fragment`);
  return url.toString().replace(/\/+$/, '').replace(/\/v1$/, '');
}
