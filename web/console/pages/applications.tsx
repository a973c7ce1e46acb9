import { useState } from 'preact/hooks';
import type { applicationResponse } from '../../../shared/contract/applications';
import { client, newIdempotencyKey, type Wire } from '../../common/api';
import { ErrorNotice, GuardedButton, Loading, PageHeader, TextField } from '../../common/components';
import { formatDateTime } from '../../common/format';
import { useDebounced, useLoad } from '../../common/hooks';
import { navigate } from '../../common/router';
import { usePermission } from '../caller';
import { ApplicationFields, applicationFieldsBody, emptyApplicationFields, type ApplicationFieldValues } from '../application-fields';
import { useAction } from '../use-action';

type Application = Wire<typeof applicationResponse>;

const PAGE_SIZE = 25;

export const applicationPath = (applicationId: string) => `/console/applications/${encodeURIComponent(applicationId)}`;

/** Every application the key may read, searched by name or id and filtered by tag, a page at a time. */
export function ApplicationsPage() {
  const [search, setSearch] = useState('');
  const [tag, setTag] = useState('');
  const [includeDeleted, setIncludeDeleted] = useState(false);
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const canCreate = usePermission('manage');
  const settledTag = useDebounced(tag.trim());
  const settledSearch = useDebounced(search.trim());
  const list = useLoad(
    (signal) => client.listApplications(
      { page, pageSize: PAGE_SIZE, tag: settledTag, search: settledSearch, includeDeleted: includeDeleted || undefined },
      { signal },
    ),
    [page, settledTag, settledSearch, includeDeleted],
  );
  return (
    <>
      <PageHeader title="Applications">
        <GuardedButton allowed={canCreate.allowed} reason={canCreate.reason} onClick={() => setCreating(true)} aria-expanded={creating}>New application</GuardedButton>
      </PageHeader>
      {creating && <CreateApplication onCancel={() => setCreating(false)} />}
      <div class="toolbar" role="search">
        <TextField label="Search" type="search" placeholder="Name or id" value={search}
          onInput={(event) => { setSearch((event.target as HTMLInputElement).value); setPage(1); }} />
        <TextField label="Tag" placeholder="e.g. desktop" value={tag} onInput={(event) => { setTag((event.target as HTMLInputElement).value); setPage(1); }} />
        <label class="checkbox">
          <input type="checkbox" checked={includeDeleted} onChange={(event) => { setIncludeDeleted((event.target as HTMLInputElement).checked); setPage(1); }} />
          Show deleted applications
        </label>
      </div>
      <ErrorNotice error={list.error} onRetry={list.reload} />
      {list.loading && !list.data && <Loading />}
      {list.data && (
        <>
          <div class="table-wrap" tabIndex={0} role="region" aria-label="Applications table">
            <table>
              <caption class="visually-hidden">Applications</caption>
              <thead><tr><th scope="col">Name</th><th scope="col">Id</th><th scope="col">Tags</th><th scope="col">Updated</th></tr></thead>
              <tbody>
                {list.data.applications.map((application) => (
                  <tr key={application.applicationId}>
                    <td><a href={applicationPath(application.applicationId)}>{application.name}</a>
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

function CreateApplication({ onCancel }: { onCancel: () => void }) {
  const [applicationId, setApplicationId] = useState('');
  const [fields, setFields] = useState<ApplicationFieldValues>(emptyApplicationFields);
  const [idempotencyKey] = useState(newIdempotencyKey);
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    let created: Application | undefined;
    const ok = await action.run(async () => {
      created = await client.createApplication({ applicationId: applicationId.trim(), ...applicationFieldsBody(fields, null) }, { idempotencyKey });
    });
    if (ok && created) navigate(applicationPath(created.applicationId));
  };
  return (
    <form class="card" onSubmit={submit} aria-labelledby="create-application-heading">
      <h2 id="create-application-heading">New application</h2>
      <ErrorNotice error={action.error} />
      <TextField label="Application id" required value={applicationId} hint="Lowercase letters and digits, words joined by single hyphens (e.g. desk-app), up to 64; it appears in download and update URLs and cannot change."
        onInput={(event) => setApplicationId((event.target as HTMLInputElement).value)} />
      <ApplicationFields values={fields} onChange={setFields} error={action.error} />
      <div class="page-actions">
        <button type="submit" class="button" disabled={action.busy}>{action.busy ? 'Creating…' : 'Create application'}</button>
        <button type="button" class="button secondary" onClick={onCancel}>Cancel</button>
      </div>
    </form>
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
