import { Command } from 'commander';
import { PAGE_SIZE_MAX } from '../../shared/policy';
import { action, integerOption } from '../context';

export function auditCommand(): Command {
  return new Command('audit').description('The audit log of management writes, newest first (an admin-scope key)')
    .option('--action <action>', 'one action, e.g. version.update')
    .option('--app <applicationId>', 'one application only')
    .option('--limit <n>', `entries per page (1-${PAGE_SIZE_MAX}, default 20)`, integerOption('--limit', 1, PAGE_SIZE_MAX))
    .option('--cursor <cursor>', 'the nextCursor of an earlier page')
    .action(action(async (context, options: { action?: string; app?: string; limit?: number; cursor?: string }) => {
      const data = await context.client().listAuditEntries({
        action: options.action, applicationId: options.app, limit: options.limit, cursor: options.cursor,
      });
      context.output.result(data, () => {
        context.output.table(['time', 'actor', 'action', 'target', 'outcome', 'status', 'request'], data.entries.map((entry) => [
          entry.timestamp, entry.actor, entry.action, entry.target, entry.outcome, entry.status, entry.requestId,
        ]));
        if (data.pagination.nextCursor) context.output.line(`more: --cursor ${data.pagination.nextCursor}`);
      });
    }));
}
