import { Command } from 'commander';
import { action } from '../context';
import { UsageError } from '../errors';
import { pageFooter, PageOptions, withPageOptions } from './pages';


interface WindowOptions {
  updatesUntil?: string;
  versionRange?: string;
}

/** The maintenance window's fields given (`none`: removed); the service checks them (a range semver cannot read: 422). */
function windowOf(options: WindowOptions): Record<string, string | null> {
  const given: Record<string, string | null> = {};
  if (options.updatesUntil !== undefined) given.updatesUntil = options.updatesUntil === 'none' ? null : options.updatesUntil;
  if (options.versionRange !== undefined) given.versionRange = options.versionRange === 'none' ? null : options.versionRange;
  return given;
}

const KEY_SHOWN_ONCE = 'The API key is shown only now: hand it to the customer.';

export function customersCommand(): Command {
  const command = new Command('customers').description('Customers: list, create, show, update, delete, grant and revoke access to applications, and their API keys');

  withPageOptions(command.command('list').description('List customers'))
    .action(action(async (context, options: PageOptions) => {
      const data = await context.client().listCustomers({ page: options.page, pageSize: options.pageSize });
      context.output.result(data, () => {
        context.output.table(['customer', 'name', 'tier', 'active', 'created'], data.customers.map((c) => [c.customerId, c.name, c.tier, c.isActive ? 'yes' : 'no', c.createdAt]));
        pageFooter(context.output, data.pagination, 'customers');
      });
    }));

  command.command('create').description('Create a customer and its first API key (shown once)')
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--tier <tier>', 'tier (one of the service\'s TIERS)')
    .option('--id <customerId>', 'the customer id (generated when absent)')
    .option('--notes <text>', 'notes')
    .option('--updates-until <date-time>', 'maintenance window: offer only releases published before this ISO 8601 date-time')
    .option('--version-range <range>', "maintenance window: offer only versions in this semver range, e.g. '<3'")
    .action(action(async (context, options: { name: string; tier: string; id?: string; notes?: string } & WindowOptions) => {
      const data = await context.client().createCustomer({
        name: options.name, tier: options.tier, ...(options.id ? { customerId: options.id } : {}), ...(options.notes !== undefined ? { notes: options.notes } : {}),
        ...windowOf(options),
      });
      context.output.result(data, () => {
        context.output.record({ ...data });
        context.output.note(KEY_SHOWN_ONCE);
      });
    }));

  command.command('show <customerId>').description('Show a customer')
    .action(action(async (context, customerId: string) => {
      const data = await context.client().getCustomer({ customerId: customerId });
      context.output.result(data, () => context.output.record({ ...data }));
    }));

  command.command('update <customerId>').description("Change a customer's name, tier, notes, status or maintenance window (takes effect on its next request)")
    .option('--name <name>', 'display name')
    .option('--tier <tier>', 'tier')
    .option('--notes <text>', 'notes')
    .option('--no-notes', 'remove the notes')
    .option('--active', 'reactivate')
    .option('--inactive', 'deactivate: its keys are refused (403)')
    .option('--updates-until <date-time>', 'maintenance window: offer only releases published before this ISO 8601 date-time (none: no end)')
    .option('--version-range <range>', "maintenance window: offer only versions in this semver range, e.g. '<3' (none: every version)")
    .action(action(async (context, customerId: string, options: { name?: string; tier?: string; notes?: string | false; active?: boolean; inactive?: boolean } & WindowOptions) => {
      if (options.active && options.inactive) throw new UsageError('give --active or --inactive, not both');
      const changes = {
        ...(options.name !== undefined ? { name: options.name } : {}),
        ...(options.tier !== undefined ? { tier: options.tier } : {}),
        ...(options.notes !== undefined ? { notes: options.notes === false ? null : options.notes } : {}),
        ...(options.active ? { isActive: true } : options.inactive ? { isActive: false } : {}),
        ...windowOf(options),
      };
      if (Object.keys(changes).length === 0) {
        throw new UsageError('nothing to change: give at least one of --name, --tier, --notes, --no-notes, --active, --inactive, --updates-until, --version-range');
      }
      const data = await context.client().updateCustomer({ customerId: customerId }, changes);
      context.output.result(data, () => context.output.record({ ...data }));
    }));

  command.command('delete <customerId>').description('Delete a customer: its keys and share links are revoked, its access removed, its activity anonymised (statistics keep counting it)')
    .action(action(async (context, customerId: string) => {
      const data = await context.client().deleteCustomer({ customerId: customerId });
      context.output.result(data, () => context.output.line(
        `${data.message}: ${data.revokedKeys} key(s) and ${data.revokedShareLinks} share link(s) revoked, ${data.anonymisedEvents} download event(s) anonymised`));
    }));

  command.command('grant <customerId> <applicationId>').description("Let a customer download an application (the application's other customers are kept)")
    .action(action(async (context, customerId: string, applicationId: string) => {
      const data = await context.client().grantCustomerApplicationAccess({ customerId: customerId, applicationId: applicationId }, {});
      context.output.result(data, () => context.output.line(`${customerId} may download ${data.applicationId} (${data.customerIds.length} customer${data.customerIds.length === 1 ? '' : 's'})`));
    }));

  command.command('revoke <customerId> <applicationId>').description("Take a customer's access to an application away (its next download is refused: 404)")
    .action(action(async (context, customerId: string, applicationId: string) => {
      const data = await context.client().revokeCustomerApplicationAccess({ customerId: customerId, applicationId: applicationId });
      context.output.result(data, () => context.output.line(`${customerId} may no longer download ${data.applicationId} (${data.customerIds.length} customer${data.customerIds.length === 1 ? '' : 's'})`));
    }));

  command.addCommand(customerKeysCommand());
  return command;
}

function customerKeysCommand(): Command {
  const command = new Command('keys').description("A customer's API keys: create, list, revoke");

  command.command('create <customerId>').description('Issue another API key (shown once)')
    .action(action(async (context, customerId: string) => {
      const data = await context.client().issueCustomerApiKey({ customerId: customerId }, {});
      context.output.result(data, () => {
        context.output.record({ ...data });
        context.output.note(KEY_SHOWN_ONCE);
      });
    }));

  command.command('list <customerId>').description("List a customer's active keys (prefixes only)")
    .action(action(async (context, customerId: string) => {
      const data = await context.client().listCustomerApiKeys({ customerId: customerId });
      context.output.result(data, () => context.output.table(['key', 'prefix', 'created', 'last used'], data.apiKeys.map((key) => [key.keyId, key.prefix, key.createdAt, key.lastUsedAt])));
    }));

  command.command('revoke <customerId> <keyId>').description('Revoke an API key: its next request is refused (401)')
    .action(action(async (context, customerId: string, keyId: string) => {
      const data = await context.client().revokeCustomerApiKey({ customerId: customerId, keyId: keyId });
      context.output.result(data, () => context.output.line(`revoked ${data.keyId} of ${data.customerId}`));
    }));

  return command;
}
