import { useState } from 'preact/hooks';
import type { applicationListResponse } from '../../../shared/contract/applications';
import { api, type Wire } from '../../common/api';
import { ErrorNotice, Loading, PageHeader, TextField } from '../../common/components';
import { formatDateTime } from '../../common/format';
import { useDebounced, useLoad } from '../../common/hooks';
import { CONSOLE_BASE } from '../routes';

type ApplicationList = Wire<typeof applicationListResponse>;

const PAGE_SIZE = 25;

/** Every application the key may read, filtered by tag, a page at a time. */
export function ApplicationsPage() {
  const [tag, setTag] = useState('');
  const [page, setPage] = useState(1);
  const settledTag = useDebounced(tag.trim());
  const list = useLoad(
    (signal) => api<ApplicationList>('/v1/management/applications', { query: { page, pageSize: PAGE_SIZE, tag: settledTag }, signal }),
    [page, settledTag],
  );
  return (
    <>
      <PageHeader title="Applications" />
      <div class="toolbar" role="search">
        <TextField label="Tag" placeholder="e.g. desktop" value={tag} onInput={(event) => { setTag((event.target as HTMLInputElement).value); setPage(1); }} />
      </div>
      <ErrorNotice error={list.error} onRetry={list.reload} />
      {list.loading && !list.data && <Loading />}
      {list.data && (
        <>
          <div class="table-wrap">
            <table>
              <caption class="visually-hidden">Applications</caption>
              <thead><tr><th scope="col">Name</th><th scope="col">Id</th><th scope="col">Tags</th><th scope="col">Updated</th></tr></thead>
              <tbody>
                {list.data.applications.map((application) => (
                  <tr key={application.applicationId}>
                    <td><a href={`${CONSOLE_BASE}/applications/${encodeURIComponent(application.applicationId)}`}>{application.name}</a>
                      {application.deletedAt && <> <span class="badge bad">deleted</span></>}</td>
                    <td><code>{application.applicationId}</code></td>
                    <td>{application.tags.map((t) => <span key={t} class="badge">{t}</span>)}</td>
                    <td>{formatDateTime(application.updatedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {list.data.applications.length === 0 && <p>No application matches.</p>}
          <Pager page={page} totalPages={list.data.pagination.totalPages} onPage={setPage} />
        </>
      )}
    </>
  );
}

/** Previous / next with where the reader is; used by every paged list. */
export function Pager({ page, totalPages, onPage }: { page: number; totalPages: number; onPage: (page: number) => void }) {
  if (totalPages <= 1) return null;
  return (
    <nav class="toolbar" aria-label="Pages">
      <button type="button" class="button secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>Previous</button>
      <span aria-live="polite">Page {page} of {totalPages}</span>
      <button type="button" class="button secondary" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>Next</button>
    </nav>
  );
}
