import { useEffect, useState } from 'preact/hooks';
import type { applicationListResponse } from '../../../shared/contract/applications';
import type { versionListResponse } from '../../../shared/contract/versions';
import type { customerResponse, issuedApiKeyResponse } from '../../../shared/contract/customers';
import type { createdCustomerShareLinkResponse } from '../../../shared/contract/downloads';
import { ConfirmButton, ShownOnce, useAction } from '../../common/actions';
import { client, newIdempotencyKey, type Wire } from '../../common/api';
import { ErrorNotice, GuardedButton, Loading, Notice, PageHeader, SelectField, TextArea, TextField } from '../../common/components';
import { formatDateTime } from '../../common/format';
import { useLoad, type Loaded } from '../../common/hooks';
import { useCaller, usePermission } from '../caller';
import { navigate } from '../../common/router';
import { AccessTokens } from './customer-tokens';
import { CONSOLE_BASE } from '../paths';
import { fieldError } from '../application-fields';
import { dateInputOf, updatesUntilOf, windowSummary } from '../maintenance-window';

type Customer = Wire<typeof customerResponse>;
type ApplicationList = Wire<typeof applicationListResponse>;
type IssuedKey = Wire<typeof issuedApiKeyResponse>;
type CreatedShareLink = Wire<typeof createdCustomerShareLinkResponse>;
type VersionList = Wire<typeof versionListResponse>;


/** One customer: its standing, the applications it may download, its keys and its share links. */
export function CustomerPage({ params }: { params: Record<string, string> }) {
  const { customerId } = params;
  const customer = useLoad((signal) => client.getCustomer({ customerId }, { signal }), [customerId]);
  // The applications it may download: changed by the access section, offered by the share link form.
  const granted = useLoad((signal) => client.listApplications({ customerId, pageSize: 100 }, { signal }), [customerId]);
  return (
    <>
      <PageHeader title={customer.data ? customer.data.name : 'Customer'}>
        <a href={`${CONSOLE_BASE}/customers`}>All customers</a>
      </PageHeader>
      <ErrorNotice error={customer.error} onRetry={customer.reload} />
      {customer.loading && !customer.data && <Loading />}
      {customer.data && (
        <>
          <CustomerDetails customer={customer.data} onChanged={customer.reload} />
          <MaintenanceWindowCard customer={customer.data} onChanged={customer.reload} />
          <ApplicationAccess customerId={customerId} granted={granted} />
          <CustomerKeys customerId={customerId} />
          <AccessTokens customerId={customerId} active={customer.data.isActive} granted={granted} />
          <CustomerShareLinks customerId={customerId} active={customer.data.isActive} granted={granted} />
          <DeleteCustomer customer={customer.data} />
        </>
      )}
    </>
  );
}

function CustomerDetails({ customer, onChanged }: { customer: Customer; onChanged: () => void }) {
  const manage = usePermission('manage');
  const { tiers } = useCaller();
  const [tier, setTier] = useState(customer.tier);
  const [notes, setNotes] = useState(customer.notes ?? '');
  const [saved, setSaved] = useState('');
  const action = useAction();
  useEffect(() => { setTier(customer.tier); setNotes(customer.notes ?? ''); }, [customer]);
  const patch = async (body: Parameters<typeof client.updateCustomer>[1], done: string) => {
    setSaved('');
    const changed = await action.run(() => client.updateCustomer({ customerId: customer.customerId }, body));
    if (changed) { setSaved(done); onChanged(); }
  };
  return (
    <section class="card" aria-labelledby="customer-details">
      <h2 id="customer-details">Details</h2>
      <dl class="facts">
        <dt>Id</dt><dd><code>{customer.customerId}</code></dd>
        <dt>Status</dt><dd>{customer.isActive ? <span class="badge ok">active</span> : <span class="badge bad">inactive: its keys and links are refused</span>}</dd>
        <dt>Created</dt><dd>{formatDateTime(customer.createdAt)}</dd>
        <dt>Updated</dt><dd>{formatDateTime(customer.updatedAt)}</dd>
      </dl>
      <ErrorNotice error={action.error} />
      {saved && <Notice kind="success">{saved}</Notice>}
      <form onSubmit={(event) => { event.preventDefault(); void patch({ tier, notes: notes.trim() ? notes : null }, 'Tier and notes saved.'); }}>
        <div class="grid-2">
          <SelectField label="Tier" value={tier} disabled={!manage.allowed} onChange={(e) => setTier((e.target as HTMLSelectElement).value)}
            options={tiers.map((t) => ({ value: t, label: t }))} />
          <p class="hint">The service's tiers, lowest first: a version that requires a tier is offered to that tier and those above.</p>
        </div>
        <TextArea label="Notes" value={notes} disabled={!manage.allowed} onInput={(e) => setNotes((e.target as HTMLTextAreaElement).value)} />
        <div class="page-actions">
          {manage.allowed
            ? <button type="submit" class="button" disabled={action.busy}>{action.busy ? 'Saving…' : 'Save tier and notes'}</button>
            : <GuardedButton allowed={false} reason={manage.reason}>Save tier and notes</GuardedButton>}
          <GuardedButton allowed={manage.allowed} reason={manage.reason} class={customer.isActive ? 'button danger' : 'button'} disabled={action.busy}
            onClick={() => void patch({ isActive: !customer.isActive }, customer.isActive ? 'Customer deactivated.' : 'Customer activated.')}>
            {customer.isActive ? 'Deactivate' : 'Activate'}
          </GuardedButton>
        </div>
      </form>
    </section>
  );
}

/**
 * The customer's maintenance window: the releases it is entitled to (published before a date, inside a
 * semver range). Every feed, latest link and the portal offer the newest release inside it.
 */
function MaintenanceWindowCard({ customer, onChanged }: { customer: Customer; onChanged: () => void }) {
  const manage = usePermission('manage');
  const [range, setRange] = useState(customer.versionRange ?? '');
  const [until, setUntil] = useState(dateInputOf(customer.updatesUntil));
  const [saved, setSaved] = useState('');
  const action = useAction();
  useEffect(() => { setRange(customer.versionRange ?? ''); setUntil(dateInputOf(customer.updatesUntil)); }, [customer]);
  const save = async (event: Event) => {
    event.preventDefault();
    setSaved('');
    const body = { versionRange: range.trim() ? range.trim() : null, updatesUntil: until ? updatesUntilOf(until) : null };
    const changed = await action.run(() => client.updateCustomer({ customerId: customer.customerId }, body));
    if (changed) { setSaved('Maintenance window saved: in force from its next request.'); onChanged(); }
  };
  return (
    <section class="card" aria-labelledby="customer-maintenance">
      <h2 id="customer-maintenance">Maintenance window</h2>
      <p class="hint">{windowSummary(customer)}</p>
      <ErrorNotice error={action.error} />
      {saved && <Notice kind="success">{saved}</Notice>}
      <form onSubmit={save} aria-label="Maintenance window">
        <div class="grid-2">
          <TextField label="Versions" hint="A semver range such as <3 or 2.x; empty: every version" value={range} disabled={!manage.allowed}
            onInput={(e) => setRange((e.target as HTMLInputElement).value)} error={fieldError(action.error, 'versionRange')} />
          <TextField label="Releases published before" type="date" hint="Empty: no end (UTC midnight of that day)" value={until} disabled={!manage.allowed}
            onInput={(e) => setUntil((e.target as HTMLInputElement).value)} error={fieldError(action.error, 'updatesUntil')} />
        </div>
        {manage.allowed
          ? <button type="submit" class="button" disabled={action.busy}>{action.busy ? 'Saving…' : 'Save maintenance window'}</button>
          : <GuardedButton allowed={false} reason={manage.reason}>Save maintenance window</GuardedButton>}
      </form>
    </section>
  );
}

function ApplicationAccess({ customerId, granted }: { customerId: string; granted: Loaded<ApplicationList> }) {
  const manage = usePermission('manage');
  const all = useLoad((signal) => client.listApplications({ pageSize: 100 }, { signal }), []);
  const [choice, setChoice] = useState('');
  const action = useAction();
  const grantedIds = new Set(granted.data?.applications.map((a) => a.applicationId) ?? []);
  const grantable = (all.data?.applications ?? []).filter((a) => !grantedIds.has(a.applicationId));
  const change = async (applicationId: string, method: 'PUT' | 'DELETE') => {
    const done = await action.run(() => (method === 'PUT' ? client.grantCustomerApplicationAccess({ customerId, applicationId }, {}) : client.revokeCustomerApplicationAccess({ customerId, applicationId })));
    if (done !== undefined) { setChoice(''); granted.reload(); }
  };
  return (
    <section class="card" aria-labelledby="customer-access">
      <h2 id="customer-access">Application access</h2>
      <ErrorNotice error={granted.error ?? action.error} onRetry={granted.error ? granted.reload : undefined} />
      {granted.data && granted.data.applications.length === 0 && <p>This customer may download no application yet.</p>}
      {granted.data && granted.data.applications.length > 0 && (
        <ul>
          {granted.data.applications.map((application) => (
            <li key={application.applicationId}>
              {application.name} <code>{application.applicationId}</code>{' '}
              <GuardedButton allowed={manage.allowed} reason={manage.reason} class="button secondary button-small" disabled={action.busy}
                onClick={() => void change(application.applicationId, 'DELETE')}>Remove access</GuardedButton>
            </li>
          ))}
        </ul>
      )}
      {manage.allowed ? (
        <form class="toolbar" onSubmit={(event) => { event.preventDefault(); if (choice) void change(choice, 'PUT'); }}>
          <SelectField label="Application" value={choice} onChange={(e) => setChoice((e.target as HTMLSelectElement).value)}
            options={[{ value: '', label: grantable.length ? 'Choose an application' : 'No other application' }, ...grantable.map((a) => ({ value: a.applicationId, label: `${a.name} (${a.applicationId})` }))]} />
          <button type="submit" class="button" disabled={!choice || action.busy}>{action.busy ? 'Granting…' : 'Grant access'}</button>
        </form>
      ) : <GuardedButton allowed={false} reason={manage.reason}>Grant access</GuardedButton>}
    </section>
  );
}

function CustomerKeys({ customerId }: { customerId: string }) {
  const manage = usePermission('manage');
  const keys = useLoad((signal) => client.listCustomerApiKeys({ customerId }, { signal }), [customerId]);
  const [issued, setIssued] = useState<IssuedKey | null>(null);
  const action = useAction();
  const issue = async () => {
    const key = await action.run(() => client.issueCustomerApiKey({ customerId }, {}, { idempotencyKey: newIdempotencyKey() }));
    if (key) { setIssued(key); keys.reload(); }
  };
  const revoke = async (keyId: string) => {
    if (await action.run(() => client.revokeCustomerApiKey({ customerId, keyId })) !== undefined) keys.reload();
  };
  return (
    <section class="card" aria-labelledby="customer-keys">
      <div class="page-header">
        <h2 id="customer-keys">API keys</h2>
        <GuardedButton allowed={manage.allowed} reason={manage.reason} disabled={action.busy} onClick={() => void issue()}>New API key</GuardedButton>
      </div>
      {issued && <ShownOnce title="New API key for this customer:" value={issued.apiKey} onDone={() => setIssued(null)} />}
      <ErrorNotice error={keys.error ?? action.error} onRetry={keys.error ? keys.reload : undefined} />
      {keys.data && keys.data.apiKeys.length === 0 && <p>No active key: the customer cannot download until one is issued.</p>}
      {keys.data && keys.data.apiKeys.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Active API keys</caption>
            <thead><tr><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {keys.data.apiKeys.map((key) => (
                <tr key={key.keyId}>
                  <td><code>{key.prefix}…</code> <span class="hint">{key.keyId}</span></td>
                  <td>{formatDateTime(key.createdAt)}</td>
                  <td>{key.lastUsedAt ? formatDateTime(key.lastUsedAt) : 'never'}</td>
                  <td>{manage.allowed
                    ? <ConfirmButton label="Revoke" confirmLabel="Yes, revoke" question={`Revoke key ${key.prefix}…?`} busy={action.busy} onConfirm={() => void revoke(key.keyId)} />
                    : <GuardedButton allowed={false} reason={manage.reason}>Revoke</GuardedButton>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function CustomerShareLinks({ customerId, active, granted }: { customerId: string; active: boolean; granted: Loaded<ApplicationList> }) {
  const manage = usePermission('manage');
  const links = useLoad((signal) => client.listCustomerShareLinks({ customerId }, { signal }), [customerId]);
  const [created, setCreated] = useState<CreatedShareLink | null>(null);
  const [applicationId, setApplicationId] = useState('');
  const [version, setVersion] = useState('');
  const [fileId, setFileId] = useState('');
  // The chosen application's published versions and their files, to pick the file from.
  const versions = useLoad((signal) => (applicationId
    ? client.listVersions({ applicationId }, { status: 'published' }, { signal })
    : Promise.resolve({ versions: [] } as VersionList)), [applicationId]);
  const offered = versions.data?.versions ?? [];
  const chosenVersion = offered.find((v) => v.version === version) ?? offered[0];
  const files = (chosenVersion?.files ?? []).filter((f) => f.status === 'available' && f.fileType !== 'SIGNATURE');
  const chosenFile = files.find((f) => f.fileId === fileId) ?? files.find((f) => f.fileType === 'MAIN') ?? files[0];
  const [maxDownloads, setMaxDownloads] = useState('5');
  const [minutes, setMinutes] = useState('60');
  const action = useAction();
  const now = Date.now();
  const create = async (event: Event) => {
    event.preventDefault();
    const link = await action.run(() => client.createCustomerShareLink({ customerId }, {
      applicationId,
      version: chosenVersion?.version,
      fileId: chosenFile?.fileId,
      ...(maxDownloads.trim() ? { maxDownloads: Number(maxDownloads) } : {}),
      ...(minutes.trim() ? { expiresInMinutes: Number(minutes) } : {}),
    }, { idempotencyKey: newIdempotencyKey() }));
    if (link) { setCreated(link); links.reload(); }
  };
  const revoke = async (shareLinkId: string) => {
    if (await action.run(() => client.revokeCustomerShareLink({ customerId, shareLinkId })) !== undefined) links.reload();
  };
  const applications = granted.data?.applications ?? [];
  const appNames = new Map(applications.map((a) => [a.applicationId, a.name]));
  // Files by name where people read: the versions of the few applications the links are of.
  const linkedApps = [...new Set(links.data?.shareLinks.map((l) => l.applicationId) ?? [])].sort().join(',');
  const fileNames = useLoad(async (signal) => {
    const names = new Map<string, string>();
    await Promise.all(linkedApps.split(',').filter(Boolean).map(async (id) => {
      const list = await client.listVersions({ applicationId: id }, {}, { signal });
      for (const v of list.versions) for (const f of v.files) names.set(f.fileId, f.fileName);
    }));
    return names;
  }, [linkedApps]);
  return (
    <section class="card" aria-labelledby="customer-links">
      <h2 id="customer-links">Share links</h2>
      <p class="hint">A share link downloads one file without a key, as this customer, until it expires, is used up or is revoked.</p>
      {created && <ShownOnce title="Share link created:" value={created.shareUrl} onDone={() => setCreated(null)} />}
      <ErrorNotice error={links.error ?? action.error} onRetry={links.error ? links.reload : undefined} />
      {links.data && links.data.shareLinks.length === 0 && <p>No share link.</p>}
      {links.data && links.data.shareLinks.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Share links</caption>
            <thead><tr><th scope="col">File</th><th scope="col">Status</th><th scope="col">Uses left</th><th scope="col">Expires</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {links.data.shareLinks.map((link) => {
                const expired = Date.parse(link.expiresAt) <= now;
                const usedUp = link.remainingDownloads === 0;
                const status = link.revokedAt ? <span class="badge bad">revoked</span>
                  : expired ? <span class="badge warn">expired</span>
                  : usedUp ? <span class="badge warn">used up</span>
                  : <span class="badge ok">active</span>;
                return (
                  <tr key={link.shareLinkId}>
                    <td>{appNames.get(link.applicationId) ?? link.applicationId} {link.version}<br /><span class="mono">{fileNames.data?.get(link.fileId) ?? link.fileId}</span></td>
                    <td>{status}</td>
                    <td>{link.remainingDownloads === null ? 'no cap' : `${link.remainingDownloads} of ${link.maxDownloads}`}</td>
                    <td>{formatDateTime(link.expiresAt)}</td>
                    <td>{link.revokedAt || expired ? null : manage.allowed
                      ? <ConfirmButton label="Revoke" confirmLabel="Yes, revoke" question="Revoke this link?" busy={action.busy} onConfirm={() => void revoke(link.shareLinkId)} />
                      : <GuardedButton allowed={false} reason={manage.reason}>Revoke</GuardedButton>}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {!manage.allowed && <GuardedButton allowed={false} reason={manage.reason}>New share link</GuardedButton>}
      {manage.allowed && !active && <Notice>Activate the customer to make share links on its behalf.</Notice>}
      {manage.allowed && active && (
        <form onSubmit={create} aria-label="New share link">
          <h3>New share link</h3>
          <div class="grid-2">
            <SelectField label="Application" value={applicationId} required onChange={(e) => { setApplicationId((e.target as HTMLSelectElement).value); setVersion(''); setFileId(''); }}
              options={[{ value: '', label: applications.length ? 'Choose an application' : 'Grant an application first' }, ...applications.map((a) => ({ value: a.applicationId, label: a.name }))]} />
            <SelectField label="Version" value={chosenVersion?.version ?? ''} disabled={offered.length === 0} onChange={(e) => { setVersion((e.target as HTMLSelectElement).value); setFileId(''); }}
              options={offered.length === 0
                ? [{ value: '', label: applicationId ? 'No published version' : 'Choose an application first' }]
                : offered.map((v, i) => ({ value: v.version, label: i === 0 ? `${v.version} (newest, ${v.channel})` : `${v.version} (${v.channel})` }))} />
            <SelectField label="File" value={chosenFile?.fileId ?? ''} disabled={files.length === 0} onChange={(e) => setFileId((e.target as HTMLSelectElement).value)}
              options={files.length === 0 ? [{ value: '', label: 'No file to share' }]
                : files.map((f) => ({ value: f.fileId, label: `${f.fileName} (${f.platform}, ${f.arch}${f.fileType === 'MAIN' ? '' : `, ${f.fileType}`})` }))} />
            <TextField label="Download cap" hint="Uses allowed; empty for no cap" type="number" min={1} value={maxDownloads} onInput={(e) => setMaxDownloads((e.target as HTMLInputElement).value)} />
            <TextField label="Lifetime in minutes" hint="At most 1440 (a day)" type="number" min={1} max={1440} value={minutes} onInput={(e) => setMinutes((e.target as HTMLInputElement).value)} />
          </div>
          <button type="submit" class="button" disabled={action.busy || !chosenFile}>{action.busy ? 'Creating…' : 'Create share link'}</button>
        </form>
      )}
    </section>
  );
}

/** Deleting a customer: its keys, tokens and share links revoked, its downloads kept anonymised in the statistics. */
function DeleteCustomer({ customer }: { customer: Customer }) {
  const manage = usePermission('manage');
  const action = useAction();
  const remove = async () => {
    const done = await action.run(() => client.deleteCustomer({ customerId: customer.customerId }));
    if (done !== undefined) navigate(`${CONSOLE_BASE}/customers`);
  };
  return (
    <section class="card danger-zone" aria-labelledby="customer-delete">
      <h2 id="customer-delete">Delete customer</h2>
      <p>Deleting {customer.name} revokes its keys and share links at once and removes its access; its past downloads stay in the statistics, without its name. It cannot be undone.</p>
      <ErrorNotice error={action.error} />
      {manage.allowed
        ? <ConfirmButton label={`Delete ${customer.name}`} confirmLabel="Yes, delete" question={`Delete ${customer.name} for good?`} busy={action.busy} onConfirm={() => void remove()} />
        : <GuardedButton allowed={false} reason={manage.reason}>Delete {customer.name}</GuardedButton>}
    </section>
  );
}
