import { Command } from 'commander';
import { action, collect } from '../context';
import { UsageError } from '../errors';
import type { AnswerOf } from '../../shared/contract/client';

/**
 * `none` stands for null (the limit removed) until the body is built: commander turns an option
 * parser's null into an empty string.
 */
const NONE = 'none';
type Given<T> = T | typeof NONE;

/** A whole number of at least 1, or `none`. */
const limit = (name: string) => (value: string): Given<number> => {
  if (value === NONE) return NONE;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < 1) throw new UsageError(`--${name} must be a whole number, at least 1 (or none)`);
  return parsed;
};

interface LimitOptions {
  name?: string;
  maxDownloads?: Given<number>;
  maxClients?: Given<number>;
  maxBytes?: Given<number>;
  validFrom?: string;
  validUntil?: string;
  app?: string[];
  channel?: string[];
  platform?: string[];
  resetEvery?: string;
  updatesUntil?: string;
  versionRange?: string;
}

function withLimitOptions(command: Command): Command {
  return command
    .option('--name <name>', 'what the token is for')
    .option('--max-downloads <n>', 'downloads per period (none: no limit)', limit('max-downloads'))
    .option('--max-clients <n>', 'distinct client addresses per period (none: no limit)', limit('max-clients'))
    .option('--max-bytes <n>', 'bytes per period (none: no limit)', limit('max-bytes'))
    .option('--valid-from <date-time>', 'ISO 8601 date-time with an offset (none: at once)')
    .option('--valid-until <date-time>', 'ISO 8601 date-time with an offset (none: no end)')
    .option('--app <applicationId>', "limit the token to this application of the customer's (repeatable)", collect)
    .option('--channel <channel>', 'limit the token to this channel (repeatable)', collect)
    .option('--platform <platform>', 'limit the token to this platform (repeatable)', collect)
    .option('--reset-every <period>', 'day, week or month: the counts start again each period (none: never)')
    .option('--updates-until <date-time>', "maintenance window: offer only releases published before this ISO 8601 date-time (none: no end), within the customer's own")
    .option('--version-range <range>', "maintenance window: offer only versions in this semver range, e.g. '<3' (none: every version), within the customer's own");
}

/** The request body of the limits given; what is not given is left out. */
function limitsOf(options: LimitOptions): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: options.name,
    maxDownloads: options.maxDownloads,
    maxClients: options.maxClients,
    maxBytes: options.maxBytes,
    validFrom: options.validFrom,
    validUntil: options.validUntil,
    applications: options.app,
    channels: options.channel,
    platforms: options.platform,
    resetEvery: options.resetEvery,
    updatesUntil: options.updatesUntil,
    versionRange: options.versionRange,
  };
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined).map(([field, value]) => [field, value === NONE ? null : value]));
}


/** A token's limits in one line each, for people. */
function described(token: AnswerOf<'updateAccessToken'>): Record<string, unknown> {
  return {
    tokenId: token.tokenId,
    customerId: token.customerId,
    name: token.name,
    prefix: token.prefix,
    maxDownloads: token.maxDownloads ?? 'no limit',
    maxClients: token.maxClients ?? 'no limit',
    maxBytes: token.maxBytes ?? 'no limit',
    validFrom: token.validFrom ?? 'at once',
    validUntil: token.validUntil ?? 'no end',
    applications: token.applications ?? "all of the customer's",
    channels: token.channels ?? 'all',
    platforms: token.platforms ?? 'all',
    resetEvery: token.resetEvery ?? 'never',
    updatesUntil: token.updatesUntil ?? "the customer's",
    versionRange: token.versionRange ?? "the customer's",
    lastUsedAt: token.lastUsedAt,
    revokedAt: token.revokedAt,
  };
}

export function tokensCommand(): Command {
  const command = new Command('tokens').description("Customers' access tokens (downloads and update feeds, with limits): create, list, show with usage, update, revoke");

  withLimitOptions(command.command('create <customerId>').description('Create an access token for a customer (shown once)'))
    .action(action(async (context, customerId: string, options: LimitOptions) => {
      const data = await context.client().createAccessToken({ customerId: customerId }, limitsOf(options));
      context.output.result(data, () => {
        context.output.record({ ...described(data), token: data.token, portalUrl: data.portalUrl });
        context.output.note('The token is shown only now. It works as a bearer or in the path: {base}/t/<token>/v1/downloads/...; the customer opens the download portal at portalUrl.');
      });
    }));

  command.command('list <customerId>').description("List a customer's active access tokens (prefixes only), oldest first")
    .action(action(async (context, customerId: string) => {
      const data = await context.client().listAccessTokens({ customerId: customerId });
      context.output.result(data, () => context.output.table(['token', 'name', 'prefix', 'downloads', 'clients', 'bytes', 'resets', 'valid until', 'last used'], data.tokens.map((token) => [
        token.tokenId, token.name, token.prefix, token.maxDownloads ?? '-', token.maxClients ?? '-', token.maxBytes ?? '-', token.resetEvery ?? 'never', token.validUntil ?? '-', token.lastUsedAt,
      ])));
    }));

  command.command('show <customerId> <tokenId>').description("A token's limits and its usage in the current period")
    .action(action(async (context, customerId: string, tokenId: string) => {
      const data = await context.client().getAccessToken({ customerId: customerId, tokenId: tokenId });
      context.output.result(data, () => context.output.record({
        ...described(data),
        downloads: data.usage.downloads,
        clients: data.usage.clients,
        bytes: data.usage.bytes,
        periodStart: data.usage.periodStart,
        periodEnd: data.usage.periodEnd ?? 'never resets',
      }));
    }));

  withLimitOptions(command.command('update <customerId> <tokenId>').description("Change a token's limits (none removes one); in force on every gateway from the next request"))
    .action(action(async (context, customerId: string, tokenId: string, options: LimitOptions) => {
      const body = limitsOf(options);
      if (Object.keys(body).length === 0) throw new UsageError('give at least one limit to change');
      const data = await context.client().updateAccessToken({ customerId: customerId, tokenId: tokenId }, body);
      context.output.result(data, () => context.output.record(described(data)));
    }));

  command.command('revoke <customerId> <tokenId>').description('Revoke an access token: its next request, on any gateway, is refused (401)')
    .action(action(async (context, customerId: string, tokenId: string) => {
      const data = await context.client().revokeAccessToken({ customerId: customerId, tokenId: tokenId });
      context.output.result(data, () => context.output.line(`revoked ${data.tokenId}`));
    }));

  return command;
}
