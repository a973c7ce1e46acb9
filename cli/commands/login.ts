import { Command } from 'commander';
import { read } from 'read';
import { action } from '../context';
import { removeProfile, saveProfile } from '../config/profiles';
import { request } from 'undici';
import { keyKind, normalizeBaseUrl, profileName } from '../config/settings';
import { ApiError, NetworkError, UsageError } from '../errors';
import { apiAgent } from '../http/agents';
import { endpoints, API_DESCRIPTION_PATH } from '../../shared/contract/endpoints';
import { apiClient, describeNetworkFailure } from '../http/api-client';
import { USER_AGENT } from '../version';

/** Reads all of stdin (a key piped in: `echo "$KEY" | bds login --url ...`). */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The key from a prompt that echoes nothing on a terminal, else from stdin; never printed. */
async function readKey(): Promise<string> {
  const key = process.stdin.isTTY
    ? await read({ prompt: 'API key: ', silent: true, replace: '', output: process.stderr })
    : await readStdin();
  const trimmed = key.trim();
  if (!trimmed) throw new UsageError('no API key given');
  if (/\s/.test(trimmed)) throw new UsageError('an API key holds no whitespace: give one key');
  return trimmed;
}

async function readUrl(option: string | undefined): Promise<string> {
  const given = option ?? process.env.BDS_URL;
  if (given) return normalizeBaseUrl(given);
  if (!process.stdin.isTTY) throw new UsageError('give the service URL with --url (or BDS_URL) when the key comes from stdin');
  return normalizeBaseUrl((await read({ prompt: 'Service URL: ', output: process.stderr })).trim());
}

/** A path only this service describes: another server's API description, or a web page, is not it. */
const SERVICE_PATH = endpoints.getDownloadUrl.path;

/**
 * Refuses a URL that is not the service, before a key is asked for or saved: the service describes
 * its API at /v1/openapi.json (without a key).
 */
async function checkService(url: string): Promise<void> {
  const described = `${url}${API_DESCRIPTION_PATH}`;
  let status: number;
  let text: string;
  try {
    const response = await request(described, { dispatcher: apiAgent, headers: { accept: 'application/json', 'user-agent': USER_AGENT } });
    status = response.statusCode;
    text = await response.body.text();
  } catch (error) {
    throw new NetworkError(`cannot reach ${url}: ${describeNetworkFailure(error)}`, error);
  }
  let document: { openapi?: unknown; paths?: Record<string, unknown> } | undefined;
  try {
    document = JSON.parse(text) as typeof document;
  } catch {
    document = undefined;
  }
  if (status !== 200 || typeof document?.openapi !== 'string' || !document.paths?.[SERVICE_PATH]) {
    throw new UsageError(`${url} is not a binary distribution service (GET ${described} answered ${status}${status === 200 ? ' without its API description' : ''}): give the URL the service answers at, e.g. https://downloads.example.com, without /v1`);
  }
}

export function loginCommand(): Command {
  return new Command('login').description('Save a service URL and API key as a profile (file mode 0600); the key is read without echo, or from stdin')
    .option('--url <url>', 'the service, e.g. https://downloads.example.com (default: BDS_URL, else asked)')
    .action(action(async (context, options: { url?: string }) => {
      const url = await readUrl(options.url);
      await checkService(url);
      const apiKey = await readKey();
      // The key must be one the service knows: a 401 is refused here. Another refusal (403) is a
      // key of the other kind or one without the listing's scope, which still authenticates.
      try {
        await apiClient(url, apiKey).listApplications({ pageSize: 1 });
      } catch (error) {
        if (!(error instanceof ApiError) || error.status === 401) throw error;
      }
      const profile = profileName(context.options.profile);
      const file = saveProfile(profile, { url, apiKey });
      const result = { profile, url, keyKind: keyKind(apiKey), configFile: file };
      context.output.result(result, () => context.output.line(`Saved profile "${profile}" for ${url} (${result.keyKind} key) in ${file}`));
    }));
}

export function logoutCommand(): Command {
  return new Command('logout').description('Forget a profile (its key is removed from the configuration file)')
    .action(action(async (context) => {
      const profile = profileName(context.options.profile);
      const removed = removeProfile(profile);
      context.output.result({ profile, removed }, () => context.output.line(removed ? `Removed profile "${profile}"` : `No profile "${profile}"`));
    }));
}
