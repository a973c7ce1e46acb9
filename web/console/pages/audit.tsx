import { useState } from 'preact/hooks';
import type { auditPageResponse } from '../../../shared/contract/audit';
import { client, type Wire } from '../../common/api';
import { ScrollTable } from '../../common/scroll-table';
import { ErrorNotice, GuardedButton, PageHeader, TextField } from '../../common/components';
import { LoadMore, useFeed } from '../../common/feed';
import { formatDateTime } from '../../common/format';
import { useDebounced } from '../../common/hooks';
import { usePermission } from '../caller';

type AuditPage = Wire<typeof auditPageResponse>;
type AuditEntry = AuditPage['entries'][number];

/** Management writes, newest first, filtered, a keyset page at a time. */
export function AuditPage() {
  const allowed = usePermission('admin');
  return (
    <>
      <PageHeader title="Audit log" />
      {allowed.allowed ? <AuditLog /> : <GuardedButton allowed={false} reason={`${allowed.reason} The audit log is for admin keys.`}>Show the audit log</GuardedButton>}
    </>
  );
}

function AuditLog() {
  const [filters, setFilters] = useState({ actor: '', action: '', target: '', applicationId: '', from: '', to: '' });
  const settled = useDebounced(filters);
  const feed = useFeed<AuditEntry>(async (cursor, signal) => {
    const page = await client.listAuditEntries({
      actor: settled.actor.trim(), action: settled.action.trim(), target: settled.target.trim(), applicationId: settled.applicationId.trim(),
      from: settled.from, to: settled.to, cursor, limit: 50,
    }, { signal });
    return { items: page.entries, nextCursor: page.pagination.nextCursor, hasMore: page.pagination.hasMore };
  }, [settled.actor, settled.action, settled.target, settled.applicationId, settled.from, settled.to]);
  const set = (name: keyof typeof filters) => (event: Event) => setFilters((f) => ({ ...f, [name]: (event.target as HTMLInputElement).value }));
  return (
    <>
      <div class="toolbar" role="search">
        <TextField label="Actor key" hint="A key id, or root" value={filters.actor} onInput={set('actor')} />
        <TextField label="Action" hint="e.g. customer.create, shareLink.revoke" value={filters.action} onInput={set('action')} />
        <TextField label="Target" hint="Exactly as listed, e.g. acme or acme/key_…" value={filters.target} onInput={set('target')} />
        <TextField label="Application id" value={filters.applicationId} onInput={set('applicationId')} />
        <TextField label="From" type="date" hint="UTC day" value={filters.from} onInput={set('from')} />
        <TextField label="To" type="date" hint="UTC day, included" value={filters.to} onInput={set('to')} />
      </div>
      <ErrorNotice error={feed.error} onRetry={feed.reload} />
      {feed.items.length > 0 && (
        <ScrollTable label="Audit log entries">
          <table>
            <caption class="visually-hidden">Audit log, newest first</caption>
            <thead><tr><th scope="col">When</th><th scope="col">Actor key</th><th scope="col">Action</th><th scope="col">Target</th><th scope="col">Outcome</th></tr></thead>
            <tbody>
              {feed.items.map((entry) => (
                <tr key={entry.entryId} data-action={entry.action}>
                  <td>{formatDateTime(entry.timestamp)}</td>
                  <td><code>{entry.actor}</code></td>
                  <td>{entry.action}</td>
                  <td>{entry.target ? <code>{entry.target}</code> : '—'}{entry.applicationId && <span class="hint"> in {entry.applicationId}</span>}</td>
                  <td><span class={`badge ${entry.outcome === 'succeeded' ? 'ok' : entry.outcome === 'pending' ? 'warn' : 'bad'}`}>{entry.outcome}</span>
                    {entry.status !== null && <span class="hint"> {entry.status}</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollTable>
      )}
      <LoadMore feed={feed} noun="entries" />
    </>
  );
}
