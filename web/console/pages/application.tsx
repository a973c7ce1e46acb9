import { useState } from 'preact/hooks';
import type { applicationResponse, applicationWithVersionsResponse } from '../../../shared/contract/applications';
import { RELEASE_STATUSES } from '../../../shared/releases/lifecycle';
import { client, type Wire } from '../../common/api';
import { CopyButton, ErrorNotice, GuardedButton, Loading, Notice, PageHeader, SelectField, TextField } from '../../common/components';
import { formatDateTime } from '../../common/format';
import { useLoad } from '../../common/hooks';
import { navigate } from '../../common/router';
import { useCaller, usePermission } from '../caller';
import { ApplicationFields, applicationFieldsBody, applicationFieldValues, type ApplicationFieldValues } from '../application-fields';
import { ApplicationLogoPanel } from '../application-logo';
import { useAction } from '../use-action';
import { applicationPath } from './applications';
import { repositoriesPath } from './repositories';

type ApplicationWithVersions = Wire<typeof applicationWithVersionsResponse>;
type Application = Wire<typeof applicationResponse>;
export type VersionSummary = ApplicationWithVersions['versions'][number];

export const versionPath = (applicationId: string, version: string) => `${applicationPath(applicationId)}/versions/${encodeURIComponent(version)}`;

export function statusBadge(status: VersionSummary['status']) {
  const kind = status === 'published' ? 'ok' : status === 'yanked' ? 'bad' : 'warn';
  return <span class={`badge ${kind}`}>{status}</span>;
}

/** One application: its settings, soft delete and restore, and its versions by channel and status. */
export function ApplicationPage({ params }: { params: Record<string, string> }) {
  const { applicationId } = params;
  const loaded = useLoad(
    (signal) => client.getApplication({ applicationId }, { includeDeleted: true }, { signal }),
    [applicationId],
  );
  const canManage = usePermission('manage', applicationId);
  const canPublish = usePermission('publish', applicationId);
  const [editing, setEditing] = useState(false);
  const action = useAction();
  if (!loaded.data) {
    return loaded.error
      ? <><PageHeader title="Application" /><ErrorNotice error={loaded.error} onRetry={loaded.reload} /></>
      : <Loading />;
  }
  const app = loaded.data;
  const target = { applicationId: app.applicationId };
  const remove = () => action.run(async () => {
    if (!confirm(`Delete ${app.name}? Its downloads and update feeds stop until it is restored.`)) return;
    await client.deleteApplication(target);
    loaded.reload();
  });
  const restore = () => action.run(async () => {
    await client.restoreApplication(target);
    loaded.reload();
  });
  const [purgeStarted, setPurgeStarted] = useState<string | null>(null);
  const purge = () => action.run(async () => {
    if (!confirm(`Purge every release of ${app.name}? Their files are deleted for good and the application can no longer be restored.`)) return;
    const started = await client.purgeApplicationReleases(target);
    setPurgeStarted(started.purgeStartedAt);
  });
  return (
    <>
      <PageHeader title={app.name}>
        {app.deletedAt
          ? <>
            <GuardedButton allowed={canManage.allowed} reason={canManage.reason} onClick={restore} disabled={action.busy || purgeStarted !== null}>Restore application</GuardedButton>
            <GuardedButton allowed={canManage.allowed} reason={canManage.reason} class="button danger" onClick={purge} disabled={action.busy || purgeStarted !== null}>Purge releases</GuardedButton>
          </>
          : <>
            <GuardedButton allowed={canManage.allowed} reason={canManage.reason} class="button secondary" onClick={() => setEditing(!editing)} aria-expanded={editing}>Edit application</GuardedButton>
            <GuardedButton allowed={canManage.allowed} reason={canManage.reason} class="button danger" onClick={remove} disabled={action.busy}>Delete application</GuardedButton>
          </>}
      </PageHeader>
      <p><a href="/console/applications">All applications</a> · <a href={repositoriesPath(app.applicationId)}>Package repositories (apt, dnf)</a></p>
      <ErrorNotice error={action.error} />
      {app.deletedAt && <Notice kind="warning">Deleted {formatDateTime(app.deletedAt)}: customers cannot download it and its update feeds are gone until it is restored. Its releases are kept until they are purged, which the service allows once its retention period has passed.</Notice>}
      {purgeStarted && <Notice kind="info">Purge started {formatDateTime(purgeStarted)}: the releases' files are being deleted.</Notice>}
      {editing && <EditApplication app={app} onDone={() => { setEditing(false); loaded.reload(); }} />}
      <dl class="facts card">
        <dt>Id</dt><dd><code>{app.applicationId}</code></dd>
        <dt>Description</dt><dd>{app.description ?? '—'}</dd>
        <dt>Tags</dt><dd>{app.tags.length ? app.tags.map((t) => <span key={t} class="badge">{t}</span>) : '—'}</dd>
        <dt>New versions start as</dt><dd>{app.defaultVersionStatus}</dd>
        <dt>Update signing key</dt>
        <dd>{app.updateSigningKey ? <><code>{app.updateSigningKey.slice(0, 24)}…</code> <CopyButton value={app.updateSigningKey} label="Copy key" /></> : 'none: signatures are stored unverified'}</dd>
        <dt>Sparkle public key</dt>
        <dd>{app.sparklePublicKey ? <><code>{app.sparklePublicKey.slice(0, 24)}…</code> <CopyButton value={app.sparklePublicKey} label="Copy Sparkle key" /></> : 'none: Sparkle signatures are not verified'}</dd>
        <dt>Portal name</dt><dd>{app.displayName ?? <span class="hint">{app.name} (the name)</span>}</dd>
        <dt>Accent colour</dt><dd>{app.accentColour ? <><span class="swatch" data-colour={app.accentColour} ref={paintSwatch} /> <code>{app.accentColour}</code></> : '—'}</dd>
        <dt>Support URL</dt><dd>{app.supportUrl ? <a href={app.supportUrl} rel="noopener noreferrer">{app.supportUrl}</a> : '—'}</dd>
        <dt>Licence</dt>
        <dd>{app.licenceText ? <>revision {app.licenceRevision}: customers accept it before downloading <details><summary>Read it</summary><pre class="licence-text">{app.licenceText}</pre></details></> : 'none'}</dd>
        <dt>Customers with access</dt><dd>{app.customerIds.length}</dd>
      </dl>
      <ApplicationLogoPanel app={app} canManage={canManage} onChanged={loaded.reload} />
      <Versions app={app} canPublish={canPublish} />
    </>
  );
}

/** Paints a colour sample from its data attribute (through the CSSOM, which the content security policy allows). */
function paintSwatch(element: HTMLElement | null) {
  if (element?.dataset.colour) element.style.backgroundColor = element.dataset.colour;
}

function EditApplication({ app, onDone }: { app: Application; onDone: () => void }) {
  const [values, setValues] = useState<ApplicationFieldValues>(applicationFieldValues(app));
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const body = applicationFieldsBody(values, app);
    // Nothing changed: nothing to send.
    if (Object.keys(body).length === 0) return onDone();
    const ok = await action.run(() => client.updateApplication({ applicationId: app.applicationId }, body));
    if (ok) onDone();
  };
  return (
    <form class="card" onSubmit={submit} aria-labelledby="edit-application-heading">
      <h2 id="edit-application-heading">Edit application</h2>
      <ErrorNotice error={action.error} />
      <ApplicationFields values={values} onChange={setValues} error={action.error} />
      <div class="page-actions">
        <button type="submit" class="button" disabled={action.busy}>{action.busy ? 'Saving…' : 'Save changes'}</button>
        <button type="button" class="button secondary" onClick={onDone}>Cancel</button>
      </div>
    </form>
  );
}

function Versions({ app, canPublish }: { app: ApplicationWithVersions; canPublish: { allowed: boolean; reason: string } }) {
  const [channel, setChannel] = useState('');
  const [status, setStatus] = useState('');
  const [creating, setCreating] = useState(false);
  const channels = [...new Set(app.versions.map((v) => v.channel))];
  const shown = app.versions.filter((v) => (!channel || v.channel === channel) && (!status || v.status === status));
  const byChannel = channels.filter((c) => shown.some((v) => v.channel === c));
  return (
    <section aria-labelledby="versions-heading">
      <div class="page-header">
        <h2 id="versions-heading">Versions</h2>
        {!app.deletedAt && <div class="page-actions">
          <GuardedButton allowed={canPublish.allowed} reason={canPublish.reason} onClick={() => setCreating(!creating)} aria-expanded={creating}>New version</GuardedButton>
          {canPublish.allowed && <a class="button secondary" href={`${applicationPath(app.applicationId)}/publish`}>Publish a build folder</a>}
        </div>}
      </div>
      <StrandedInstalls app={app} />
      {creating && <NewVersion app={app} />}
      <div class="toolbar">
        <SelectField label="Show channel" value={channel} onChange={(event) => setChannel((event.target as HTMLSelectElement).value)}
          options={[{ value: '', label: 'All channels' }, ...channels.map((c) => ({ value: c, label: c }))]} />
        <SelectField label="Show status" value={status} onChange={(event) => setStatus((event.target as HTMLSelectElement).value)}
          options={[{ value: '', label: 'Any status' }, ...RELEASE_STATUSES.map((s) => ({ value: s, label: s }))]} />
      </div>
      {app.versions.length === 0 && <p>No version yet. Create one and drop its files on it.</p>}
      {app.versions.length > 0 && shown.length === 0 && <p>No version matches these filters.</p>}
      {byChannel.map((c) => (
        <div key={c} class="table-wrap" tabIndex={0} role="region" aria-label={`Versions of channel ${c}`}>
          <table>
            <caption>Channel {c}</caption>
            <thead><tr><th scope="col">Version</th><th scope="col">Status</th><th scope="col">Rollout</th><th scope="col">Files</th><th scope="col">Published</th></tr></thead>
            <tbody>
              {shown.filter((v) => v.channel === c).map((v) => (
                <tr key={v.version}>
                  <td><a href={versionPath(app.applicationId, v.version)}>{v.version}</a></td>
                  <td>{statusBadge(v.status)}{v.updateFeedProblems.length > 0 && <> <span class="badge warn">feed problem</span></>}
                    {v.status === 'yanked' && v.yankReason && <><br /><span class="hint">Yanked: {v.yankReason}</span></>}</td>
                  <td>{v.rolloutPercentage}%</td>
                  <td>{v.files.length}{v.files.some((f) => f.status !== 'available') && <> ({v.files.filter((f) => f.status !== 'available').length} not available)</>}</td>
                  <td>{formatDateTime(v.publishedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </section>
  );
}

/** A version exists once its first file is uploaded: the form names it and opens its page to drop files on. */
/** Installs a signing-key change left with no path forward: published for them, a release must be signed with the key they trust. */
function StrandedInstalls({ app }: { app: ApplicationWithVersions }) {
  if (app.strandedInstalls.length === 0) return null;
  return (
    <div class="notice notice-warning" role="status" data-testid="stranded-installs">
      {app.strandedInstalls.map(({ kind, keyId, versions }) => (
        <p key={`${kind}:${keyId}`}>
          Installs of {versions.join(', ')} trust the retired {kind === 'minisign' ? `update-signing key ${keyId}` : 'Sparkle key'} and
          are offered only releases signed with it: none is newer. Publish a bridge release signed with that key (and shipping the
          current one) before they can update.
        </p>
      ))}
    </div>
  );
}

function NewVersion({ app }: { app: ApplicationWithVersions }) {
  const [version, setVersion] = useState('');
  const { channels } = useCaller();
  const [channel, setChannel] = useState(app.versions[0]?.channel ?? channels[0]);
  const [status, setStatus] = useState<'draft' | 'published'>('draft');
  const exists = app.versions.some((v) => v.version === version.trim());
  const submit = (event: Event) => {
    event.preventDefault();
    const query = new URLSearchParams({ channel, status });
    navigate(`${versionPath(app.applicationId, version.trim())}?${query}`);
  };
  return (
    <form class="card" onSubmit={submit} aria-labelledby="new-version-heading">
      <h2 id="new-version-heading">New version</h2>
      <p class="hint">The version is created with its first file: name it here, then drop its files on the next page.</p>
      <TextField label="Version" required placeholder="1.2.3" value={version} error={exists ? 'this version exists already: open it from the list' : undefined}
        onInput={(event) => setVersion((event.target as HTMLInputElement).value)} />
      <SelectField label="Channel" value={channel} onChange={(event) => setChannel((event.target as HTMLSelectElement).value)}
        options={channels.map((c, i) => ({ value: c, label: i === 0 ? `${c} (most stable)` : c }))} />
      <SelectField label="Created as" value={status} onChange={(event) => setStatus((event.target as HTMLSelectElement).value as 'draft' | 'published')}
        options={[{ value: 'draft', label: 'Draft (publish it when its files are in)' }, { value: 'published', label: 'Published with its first file' }]} />
      <button type="submit" class="button" disabled={!version.trim() || exists}>Continue to the files</button>
    </form>
  );
}
