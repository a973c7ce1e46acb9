import { useState } from 'preact/hooks';
import type { issuedAdminKeyResponse } from '../../../shared/contract/admin-keys';
import { SCOPES, type Scope } from '../../../shared/scopes';
import { ConfirmButton, ShownOnce, useAction } from '../../common/actions';
import { client, newIdempotencyKey, type Wire } from '../../common/api';
import { ErrorNotice, GuardedButton, Loading, PageHeader, TextField } from '../../common/components';
import { formatDateTime } from '../../common/format';
import { useLoad } from '../../common/hooks';
import { usePermission } from '../caller';

type IssuedAdminKey = Wire<typeof issuedAdminKeyResponse>;

const SCOPE_MEANING: Record<string, string> = {
  publish: 'uploads and version changes',
  read: 'listings, statistics, activity',
  manage: 'applications and customers',
  admin: 'everything, admin keys and the audit log included',
};

/** Keys for the vendor's team, each with only the scopes (and applications) its holder needs. */
export function AdminKeysPage() {
  const admin = usePermission('admin');
  return (
    <>
      <PageHeader title="Admin keys" />
      {admin.allowed ? <AdminKeys /> : <GuardedButton allowed={false} reason={`${admin.reason} Admin keys are managed with an admin key.`}>New admin key</GuardedButton>}
    </>
  );
}

function AdminKeys() {
  const keys = useLoad((signal) => client.listAdminKeys({ signal }), []);
  const [issued, setIssued] = useState<IssuedAdminKey | null>(null);
  const action = useAction();
  const revoke = async (keyId: string) => {
    if (await action.run(() => client.revokeAdminKey({ keyId })) !== undefined) keys.reload();
  };
  return (
    <>
      {issued && <ShownOnce title={`Key ${issued.name} created:`} value={issued.apiKey} onDone={() => setIssued(null)} />}
      <CreateAdminKeyForm onCreated={(key) => { setIssued(key); keys.reload(); }} />
      <ErrorNotice error={keys.error ?? action.error} onRetry={keys.error ? keys.reload : undefined} />
      {keys.loading && !keys.data && <Loading />}
      {keys.data && keys.data.apiKeys.length === 0 && <p>No scoped key yet: only the root keys of the configuration.</p>}
      {keys.data && keys.data.apiKeys.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Scoped admin keys</caption>
            <thead><tr><th scope="col">Name</th><th scope="col">Scopes</th><th scope="col">Applications</th><th scope="col">Last used</th><th scope="col">Expires</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {keys.data.apiKeys.map((key) => (
                <tr key={key.keyId}>
                  <td>{key.name}<p class="hint"><code>{key.prefix}…</code> {key.keyId}</p></td>
                  <td>{key.scopes.join(', ')}</td>
                  <td>{key.applicationIds ? key.applicationIds.join(', ') : 'all'}</td>
                  <td>{key.lastUsedAt ? formatDateTime(key.lastUsedAt) : 'never'}</td>
                  <td>{key.expiresAt ? formatDateTime(key.expiresAt) : 'never'}</td>
                  <td><ConfirmButton label="Revoke" confirmLabel="Yes, revoke" question={`Revoke ${key.name}?`} busy={action.busy} onConfirm={() => void revoke(key.keyId)} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

function CreateAdminKeyForm({ onCreated }: { onCreated: (key: IssuedAdminKey) => void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['read']);
  const [applications, setApplications] = useState('');
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const applicationIds = applications.split(/[\s,]+/).filter(Boolean);
    const key = await action.run(() => client.createAdminKey(
      { name: name.trim(), scopes, ...(applicationIds.length ? { applicationIds } : {}) },
      { idempotencyKey: newIdempotencyKey() },
    ));
    if (key) { setName(''); onCreated(key); }
  };
  return (
    <form class="card" onSubmit={submit} aria-label="New admin key">
      <h2>New admin key</h2>
      <ErrorNotice error={action.error} />
      <TextField label="Name" hint="Who or what holds it, e.g. support desk" required value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
      <fieldset class="checks">
        <legend>Scopes</legend>
        {SCOPES.map((scope) => (
          <label key={scope}>
            <input type="checkbox" checked={scopes.includes(scope)}
              onChange={(e) => setScopes((e.target as HTMLInputElement).checked ? [...scopes, scope] : scopes.filter((s) => s !== scope))} />
            {scope} <span class="hint">({SCOPE_MEANING[scope]})</span>
          </label>
        ))}
      </fieldset>
      <TextField label="Limited to applications (optional)" hint="Application ids separated by commas; empty for every application" value={applications}
        onInput={(e) => setApplications((e.target as HTMLInputElement).value)} />
      <button type="submit" class="button" disabled={action.busy || !name.trim() || scopes.length === 0}>{action.busy ? 'Creating…' : 'Create key'}</button>
    </form>
  );
}
