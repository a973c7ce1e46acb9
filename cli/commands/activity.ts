import { setTimeout as sleep } from 'node:timers/promises';
import { Command, Option } from 'commander';
import { action, integerOption } from '../context';
import type { AnswerOf, Client, QueryOf } from '../../shared/contract/client';

type Query = QueryOf<'listActivity'>;
import { Output } from '../output/output';
import { PAGE_SIZE_MAX } from '../../shared/policy';

type ActivityItem = AnswerOf<'listActivity'>['activities'][number];

/**
 * Events are stored in small batches, so one can appear slightly behind a newer one already shown;
 * a poll looks this far back behind the newest event seen, and ids already shown are skipped.
 */
const FOLLOW_LOOKBACK_MS = 60_000;

interface ActivityOptions {
  type?: 'upload' | 'download';
  app?: string;
  limit?: number;
  cursor?: string;
  follow?: boolean;
  interval?: number;
}

const columns = (item: ActivityItem) => [item.timestamp, item.type, item.applicationId, item.version, item.fileId, item.customerId ?? 'admin', item.clientIp];
const HEAD = ['time', 'type', 'application', 'version', 'file', 'customer', 'client'];

function printLine(output: Output, item: ActivityItem): void {
  if (output.json) output.event('activity', { ...item });
  else output.line(columns(item).map((value) => value ?? '').join('  '));
}

/**
 * Polls the newest-first feed and prints what is new, oldest first, until interrupted. Each poll
 * reads from the top until it reaches events older than the lookback window behind the newest
 * event seen.
 */
async function follow(client: Client, output: Output, filters: Query, intervalSeconds: number): Promise<never> {
  const shown = new Map<string, number>();
  let newest = 0;
  for (let first = true; ; first = false) {
    const fresh: ActivityItem[] = [];
    let cursor: string | undefined;
    for (;;) {
      const data = await client.listActivity({ ...filters, limit: PAGE_SIZE_MAX, cursor });
      let reachedSeen = false;
      for (const item of data.activities) {
        const at = Date.parse(item.timestamp);
        if (!first && at < newest - FOLLOW_LOOKBACK_MS) {
          reachedSeen = true;
          break;
        }
        if (!shown.has(item.eventId)) fresh.push(item);
      }
      // The first poll shows one page, as the listing without --follow would.
      if (first || reachedSeen || !data.pagination.hasMore || !data.pagination.nextCursor) break;
      cursor = data.pagination.nextCursor;
    }
    for (const item of fresh.reverse()) {
      printLine(output, item);
      const at = Date.parse(item.timestamp);
      shown.set(item.eventId, at);
      newest = Math.max(newest, at);
    }
    for (const [eventId, at] of shown) if (at < newest - 2 * FOLLOW_LOOKBACK_MS) shown.delete(eventId);
    await sleep(intervalSeconds * 1000);
  }
}

export function activityCommand(): Command {
  return new Command('activity').description('Uploads and downloads, newest first (--follow: print new ones as they happen)')
    .addOption(new Option('--type <type>', 'one kind of event only').choices(['upload', 'download']))
    .option('--app <applicationId>', 'one application only')
    .option('--limit <n>', `events per page (1-${PAGE_SIZE_MAX}, default 20)`, integerOption('--limit', 1, PAGE_SIZE_MAX))
    .option('--cursor <cursor>', 'the nextCursor of an earlier page')
    .option('-f, --follow', 'keep polling and print new events, oldest first (--json: one object per line)')
    .option('--interval <seconds>', 'seconds between polls with --follow (default 2)', integerOption('--interval', 1, 3600), 2)
    .action(action(async (context, options: ActivityOptions) => {
      const filters: Query = { type: options.type, applicationId: options.app };
      const client = context.client();
      if (options.follow) {
        await follow(client, context.output, filters, options.interval ?? 2);
        return;
      }
      const data = await client.listActivity({ ...filters, limit: options.limit, cursor: options.cursor });
      context.output.result(data, () => {
        context.output.table(HEAD, data.activities.map(columns));
        if (data.pagination.nextCursor) context.output.line(`more: --cursor ${data.pagination.nextCursor}`);
      });
    }));
}
