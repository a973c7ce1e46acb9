import type { BodyOf } from '../../shared/contract/client';
import { Command } from 'commander';
import { action, collect } from '../context';
import { UsageError } from '../errors';
import { DAY_MS } from '../../shared/durations';


/** `--expires-in 90d` / `12h` as an ISO date-time from now; an ISO date-time as given. */
function expiry(options: { expiresAt?: string; expiresInDays?: number }): string | undefined {
  if (options.expiresAt !== undefined && options.expiresInDays !== undefined) throw new UsageError('give --expires-at or --expires-in-days, not both');
  if (options.expiresInDays !== undefined) return new Date(Date.now() + options.expiresInDays * DAY_MS).toISOString();
  return options.expiresAt;
}

export function adminKeysCommand(): Command {
  const command = new Command('admin-keys').description('Scoped admin keys (for pipelines): create, list, revoke');

  command.command('create').description('Issue an admin key limited to scopes and, optionally, applications (shown once)')
    .requiredOption('--name <name>', 'what the key is for, e.g. "CI for desktop-client"')
    .requiredOption('--scope <scope>', 'publish, read, manage or admin (repeatable)', collect)
    .option('--app <applicationId>', 'limit the key to this application (repeatable)', collect)
    .option('--expires-at <date-time>', 'ISO 8601 date-time with an offset, e.g. 2027-01-31T00:00:00Z')
    .option('--expires-in-days <days>', 'expire this many days from now', (value: string) => {
      const days = Number(value);
      if (!Number.isInteger(days) || days < 1) throw new UsageError('--expires-in-days must be a whole number of days, at least 1');
      return days;
    })
    .action(action(async (context, options: { name: string; scope: BodyOf<'createAdminKey'>['scopes']; app?: string[]; expiresAt?: string; expiresInDays?: number }) => {
      const expiresAt = expiry(options);
      const data = await context.client().createAdminKey({
        name: options.name, scopes: options.scope, ...(options.app ? { applicationIds: options.app } : {}), ...(expiresAt ? { expiresAt } : {}),
      });
      context.output.result(data, () => {
        context.output.record({ ...data });
        context.output.note('The API key is shown only now: store it in the pipeline\'s secrets.');
      });
    }));

  command.command('list').description('List the admin keys not revoked (prefixes only), oldest first')
    .action(action(async (context) => {
      const data = await context.client().listAdminKeys();
      context.output.result(data, () => context.output.table(['key', 'name', 'prefix', 'scopes', 'applications', 'expires', 'last used'], data.apiKeys.map((key) => [
        key.keyId, key.name, key.prefix, key.scopes, key.applicationIds ?? 'all', key.expiresAt ?? 'never', key.lastUsedAt,
      ])));
    }));

  command.command('revoke <keyId>').description("Revoke an admin key: its next request, on any gateway, is refused (401)")
    .action(action(async (context, keyId: string) => {
      const data = await context.client().revokeAdminKey({ keyId: keyId });
      context.output.result(data, () => context.output.line(`revoked ${data.keyId}`));
    }));

  return command;
}
