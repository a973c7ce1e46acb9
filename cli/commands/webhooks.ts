import type { AnswerOf, BodyOf } from '../../shared/contract/client';
import { Command, InvalidArgumentError, Option } from 'commander';
import { WEBHOOK_EVENT_TYPES } from '../../shared/webhooks/event-types';
import { action, CommandContext } from '../context';
import { UsageError } from '../errors';
import { pageFooter, PageOptions, withPageOptions } from './pages';
/** The event types commander holds --event to (the contract's list). */
type WebhookEvents = NonNullable<BodyOf<'updateWebhook'>['events']>;

const SECRET_SHOWN_ONCE = 'The signing secret is shown only now: store it where the receiver verifies signatures.';

const eventOption = (description: string) =>
  new Option('--event <type>', `${description} (repeatable): ${WEBHOOK_EVENT_TYPES.join(', ')}`).argParser((value: string, previous: string[] | undefined) => {
    if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(value)) throw new InvalidArgumentError(`must be one of: ${WEBHOOK_EVENT_TYPES.join(', ')}`);
    return [...(previous ?? []), value];
  });

function showWebhook(context: CommandContext, data: AnswerOf<'getWebhook'> | AnswerOf<'createWebhook'> | AnswerOf<'rotateWebhookSecret'>): void {
  context.output.result(data, () => {
    context.output.record({ ...data });
    if ('secret' in data) context.output.note(SECRET_SHOWN_ONCE);
  });
}

/** Webhook endpoints (admin scope): signed POSTs to a receiver when releases, uploads, downloads or customers change. */
export function webhooksCommand(): Command {
  const command = new Command('webhooks').description('Webhook endpoints: create, list, show, update, delete, rotate their secret, and their deliveries (list, redeliver)');

  withPageOptions(command.command('list').description('List webhook endpoints'))
    .action(action(async (context, options: PageOptions) => {
      const data = await context.client().listWebhooks({ page: options.page, pageSize: options.pageSize });
      context.output.result(data, () => {
        context.output.table(['webhook', 'url', 'events', 'active', 'failing since'], data.webhooks.map((w) => [
          w.webhookId, w.url, w.events.join('\n'), w.isActive ? 'yes' : `no${w.disabledReason ? ` (${w.disabledReason})` : ''}`, w.failingSince,
        ]));
        pageFooter(context.output, data.pagination, 'webhooks');
      });
    }));

  command.command('create').description('Register an endpoint; its signing secret is shown once')
    .requiredOption('--url <url>', 'where deliveries are POSTed (https, or a host the service allows)')
    .addOption(eventOption('an event type to deliver').makeOptionMandatory())
    .option('--description <text>', 'description')
    .option('--inactive', 'register it without delivering yet')
    .action(action(async (context, options: { url: string; event: WebhookEvents; description?: string; inactive?: boolean }) => {
      const data = await context.client().createWebhook({
        url: options.url, events: options.event,
        ...(options.description !== undefined ? { description: options.description } : {}),
        ...(options.inactive ? { isActive: false } : {}),
      });
      showWebhook(context, data);
    }));

  command.command('show <webhookId>').description('Show an endpoint')
    .action(action(async (context, webhookId: string) => showWebhook(context, (await context.client().getWebhook({ webhookId: webhookId })))));

  command.command('update <webhookId>').description("Change an endpoint's URL, events, description or status (reactivating one disabled for failing)")
    .option('--url <url>', 'where deliveries are POSTed')
    .addOption(eventOption('an event type to deliver; the list given replaces the stored one'))
    .option('--description <text>', 'description ("" clears it)')
    .option('--active', 'deliver (again)')
    .option('--inactive', 'stop delivering')
    .action(action(async (context, webhookId: string, options: { url?: string; event?: WebhookEvents; description?: string; active?: boolean; inactive?: boolean }) => {
      if (options.active && options.inactive) throw new UsageError('give --active or --inactive, not both');
      const changes = {
        ...(options.url !== undefined ? { url: options.url } : {}),
        ...(options.event ? { events: options.event } : {}),
        ...(options.description !== undefined ? { description: options.description === '' ? null : options.description } : {}),
        ...(options.active ? { isActive: true } : options.inactive ? { isActive: false } : {}),
      };
      if (Object.keys(changes).length === 0) throw new UsageError('nothing to change: give at least one of --url, --event, --description, --active, --inactive');
      showWebhook(context, (await context.client().updateWebhook({ webhookId: webhookId }, changes)));
    }));

  command.command('delete <webhookId>').description('Delete an endpoint and its delivery log')
    .action(action(async (context, webhookId: string) => {
      const data = await context.client().deleteWebhook({ webhookId: webhookId });
      context.output.result(data, () => context.output.line(data.message));
    }));

  command.command('rotate-secret <webhookId>').description('Issue a new signing secret (shown once); the previous one signs too until previousSecretExpiresAt')
    .action(action(async (context, webhookId: string) => {
      const data = await context.client().rotateWebhookSecret({ webhookId: webhookId }, {});
      showWebhook(context, data);
    }));

  withPageOptions(command.command('deliveries <webhookId>').description("List an endpoint's deliveries, newest first"))
    .action(action(async (context, webhookId: string, options: PageOptions) => {
      const data = await context.client().listWebhookDeliveries({ webhookId: webhookId }, { page: options.page, pageSize: options.pageSize });
      context.output.result(data, () => {
        context.output.table(['delivery', 'event', 'status', 'attempts', 'response', 'last attempt'], data.deliveries.map((d) => [
          d.deliveryId, d.eventType, d.status, d.attempts, d.responseStatus ?? d.error, d.lastAttemptAt,
        ]));
        pageFooter(context.output, data.pagination, 'deliveries');
      });
    }));

  command.command('redeliver <webhookId> <deliveryId>').description('Send a delivered or failed message again')
    .action(action(async (context, webhookId: string, deliveryId: string) => {
      const data = await context.client().redeliverWebhookDelivery({ webhookId: webhookId, deliveryId: deliveryId }, {});
      context.output.result(data, () => context.output.line(`${data.deliveryId} (${data.eventType}) queued again: ${data.status}`));
    }));

  return command;
}
