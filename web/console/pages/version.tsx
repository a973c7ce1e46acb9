import { useEffect, useState } from 'preact/hooks';
import { client } from '../../common/api';
import { CopyButton, ErrorNotice, GuardedButton, Loading, Notice, PageHeader, SelectField, TextArea, TextField } from '../../common/components';
import { formatBytes } from '../../../shared/byte-sizes';
import { formatDateTime } from '../../common/format';
import { useLoad } from '../../common/hooks';
import { navigate, useLocation } from '../../common/router';
import { signatureOf } from '../../../shared/releases/signed-files';
import { useCaller, usePermission, type Permission } from '../caller';
import { UploadPanel } from '../uploads/upload-panel';
import { useAction } from '../use-action';
import { applicationPath } from './applications';
import { statusBadge, type VersionSummary } from './application';
import { FileAttestations } from '../file-attestations';
import { fieldError } from '../application-fields';
import { VersionHealth } from './version-health';

type FileSummary = VersionSummary['files'][number];

/** The order of the file matrix: by platform, then arch, then type. */
const byTarget = (a: FileSummary, b: FileSummary) =>
  a.platform.localeCompare(b.platform) || a.arch.localeCompare(b.arch) || a.fileType.localeCompare(b.fileType) || a.fileName.localeCompare(b.fileName);

/** One version: its release actions, notes, file matrix, and the uploads that add files to it. */
export function VersionPage({ params }: { params: Record<string, string> }) {
  const { applicationId, version } = params;
  const { query } = useLocation();
  const loaded = useLoad(
    (signal) => client.getApplication({ applicationId }, {}, { signal }),
    [applicationId],
  );
  const canPublish = usePermission('publish', applicationId);
  const current = loaded.data?.versions.find((v) => v.version === version);
  // While a file is pending, its verification is followed here too (an upload from another tab or the CLI).
  const pending = current?.files.some((f) => f.status === 'pending') ?? false;
  useEffect(() => {
    if (!pending) return undefined;
    const timer = setInterval(loaded.reload, 2_000);
    return () => clearInterval(timer);
  }, [pending, loaded.reload]);

  const title = `${loaded.data?.name ?? applicationId} ${version}`;
  if (!loaded.data) {
    return loaded.error ? <><PageHeader title={title} /><ErrorNotice error={loaded.error} onRetry={loaded.reload} /></> : <Loading />;
  }
  const app = loaded.data;
  const back = <p><a href={applicationPath(applicationId)}>{app.name}: all versions</a></p>;
  if (!current) {
    const channel = query.get('channel') ?? 'stable';
    const status = query.get('status') === 'published' ? 'published' : 'draft';
    return (
      <>
        <PageHeader title={title} />
        {back}
        <Notice>Version {version} does not exist yet: its first file creates it as a {status} version on channel {channel}.</Notice>
        {canPublish.allowed
          ? <UploadPanel applicationId={applicationId} version={version} newVersion={{ channel, status }} onFinished={loaded.reload} />
          : <p class="hint">{canPublish.reason}</p>}
      </>
    );
  }
  return (
    <>
      <PageHeader title={title} />
      {back}
      <p class="version-facts">
        {statusBadge(current.status)} <span class="badge">channel {current.channel}</span> <span class="badge">rollout {current.rolloutPercentage}%</span>
        {' '}<span class="badge">{current.requiredTier ? `tier ${current.requiredTier} and above` : 'every tier'}</span>
        {' '}<span class="hint">Published {formatDateTime(current.publishedAt)} · updated {formatDateTime(current.updatedAt)}</span>
      </p>
      {current.updateFeedProblems.map((problem) => <Notice key={problem} kind="warning">Left out of update feeds: {problem}</Notice>)}
      <ReleaseActions applicationId={applicationId} version={current} permission={canPublish} onChanged={loaded.reload} />
      {current.status !== 'draft' && <VersionHealth applicationId={applicationId} version={version} permission={canPublish} onChanged={loaded.reload} />}
      <ReleaseNotes applicationId={applicationId} version={current} permission={canPublish} onChanged={loaded.reload} />
      <FileMatrix applicationId={applicationId} version={current} signingKey={app.updateSigningKey !== null || app.sparklePublicKey !== null}
        permission={canPublish} onChanged={loaded.reload} />
      <FileAttestations applicationId={applicationId} version={current.version} files={current.files} permission={canPublish} />
      {canPublish.allowed
        ? <UploadPanel applicationId={applicationId} version={version} onFinished={loaded.reload} />
        : <section class="card"><h2>Upload files</h2><p class="hint">{canPublish.reason}</p></section>}
    </>
  );
}

interface VersionProps {
  applicationId: string;
  version: VersionSummary;
  permission: Permission;
  onChanged: () => void;
}

function useVersionPatch({ applicationId, version, onChanged }: VersionProps) {
  const action = useAction();
  const patch = (body: Parameters<typeof client.updateVersion>[1]) => action.run(async () => {
    await client.updateVersion({ applicationId, version: version.version }, body);
    onChanged();
  });
  return { action, patch };
}

/** Publish, yank, move channel, staged rollout and required tier. */
function ReleaseActions(props: VersionProps) {
  const { version, permission } = props;
  const { action, patch } = useVersionPatch(props);
  const [channel, setChannel] = useState(version.channel);
  const [rollout, setRollout] = useState(version.rolloutPercentage);
  const [tier, setTier] = useState(version.requiredTier ?? '');
  const [yankReason, setYankReason] = useState('');
  const [rollbackTo, setRollbackTo] = useState('');
  useEffect(() => {
    setChannel(version.channel);
    setRollout(version.rolloutPercentage);
    setTier(version.requiredTier ?? '');
  }, [version.channel, version.rolloutPercentage, version.requiredTier]);
  const guard = { allowed: permission.allowed && !action.busy, reason: permission.reason || 'Saving…' };
  const { channels, tiers } = useCaller();
  const removeDraft = () => action.run(async () => {
    if (!confirm(`Delete draft ${version.version} with its ${version.files.length} file(s)? This cannot be undone.`)) return;
    await client.deleteDraftVersion({ applicationId: props.applicationId, version: version.version });
    navigate(applicationPath(props.applicationId));
  });
  return (
    <section class="card" aria-labelledby="release-heading">
      <h2 id="release-heading">Release</h2>
      <ErrorNotice error={action.error} />
      <div class="release-grid">
        <div>
          {version.status === 'draft' && <>
            <p class="hint">A draft is offered to nobody. Publishing offers it on channel {version.channel} to {version.rolloutPercentage}% of clients.</p>
            <div class="page-actions">
              <GuardedButton {...guard} onClick={() => patch({ status: 'published' })}>Publish version</GuardedButton>
              <GuardedButton {...guard} class="button danger" onClick={removeDraft}>Delete draft</GuardedButton>
            </div>
          </>}
          {version.status === 'published' && <form onSubmit={(event) => { event.preventDefault(); void patch({ status: 'yanked', yankReason: yankReason.trim(), ...(rollbackTo.trim() ? { rollbackTo: rollbackTo.trim() } : {}) }); }}>
            <TextField label="Reason for yanking" required value={yankReason} hint="Shown with the version to your team, e.g. crashes on start on macOS 12"
              onInput={(event) => setYankReason((event.target as HTMLInputElement).value)} />
            <TextField label="Roll installs back to" value={rollbackTo} error={fieldError(action.error, 'rollbackTo')}
              hint="Optional: an earlier published version every feed offers to installs running this one (electron-updater with allowDowngrade, Tauri with a version comparator, Squirrel.Mac, Velopack with AllowVersionDowngrade)"
              onInput={(event) => setRollbackTo((event.target as HTMLInputElement).value)} />
            <GuardedButton {...guard} class="button danger" type="submit" disabled={!yankReason.trim()}>Yank version</GuardedButton>
            <p class="hint">Yanking withdraws it: no client is offered it and its downloads are refused, until it is published again.</p>
          </form>}
          {version.status === 'yanked' && <>
            <p class="hint">Yanked{version.yankReason ? <>: <strong>{version.yankReason}</strong></> : ''}. Offered to nobody, its downloads refused.
              {version.rollbackTo && <> Installs running it are offered <strong>{version.rollbackTo}</strong>.</>}</p>
            <GuardedButton {...guard} onClick={() => patch({ status: 'published' })}>Publish again</GuardedButton>
          </>}
        </div>
        <form onSubmit={(event) => { event.preventDefault(); void patch({ channel }); }}>
          <SelectField label="Channel" value={channel} onChange={(event) => setChannel((event.target as HTMLSelectElement).value)}
            options={channels.map((c, i) => ({ value: c, label: i === 0 ? `${c} (most stable)` : c }))} />
          <p class="hint">Move to a more stable channel to promote (e.g. beta → stable).</p>
          <GuardedButton {...guard} type="submit" disabled={channel === version.channel}>Move to channel</GuardedButton>
        </form>
        <form onSubmit={(event) => { event.preventDefault(); void patch({ rolloutPercentage: rollout }); }}>
          <div class="field">
            <label for="rollout">Staged rollout: {rollout}% of clients</label>
            <input id="rollout" type="range" min={1} max={100} step={1} value={rollout} aria-valuetext={`${rollout} percent`}
              onInput={(event) => setRollout(Number((event.target as HTMLInputElement).value))} />
          </div>
          <GuardedButton {...guard} type="submit" disabled={rollout === version.rolloutPercentage}>Set rollout</GuardedButton>
        </form>
        <form onSubmit={(event) => { event.preventDefault(); void patch({ requiredTier: tier || null }); }}>
          <SelectField label="Required tier" value={tier} onChange={(event) => setTier((event.target as HTMLSelectElement).value)}
            options={[{ value: '', label: 'Every tier' }, ...tiers.map((t) => ({ value: t, label: `${t} and above` }))]} />
          <p class="hint">Customers below this tier are not offered it.</p>
          <GuardedButton {...guard} type="submit" disabled={(tier || null) === version.requiredTier}>Set tier</GuardedButton>
        </form>
      </div>
    </section>
  );
}

/** Notes written in Markdown; shown as the service renders and sanitizes them (the one renderer every client sees). */
function ReleaseNotes(props: VersionProps) {
  const { version, permission } = props;
  const { action, patch } = useVersionPatch(props);
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(version.releaseNotes ?? '');
  const save = async (event: Event) => {
    event.preventDefault();
    if (await patch({ releaseNotes: text.trim() ? text : null })) setEditing(false);
  };
  return (
    <section class="card" aria-labelledby="notes-heading">
      <div class="page-header">
        <h2 id="notes-heading">Release notes</h2>
        {!editing && <GuardedButton allowed={permission.allowed} reason={permission.reason} class="button secondary"
          onClick={() => { setText(version.releaseNotes ?? ''); setEditing(true); }}>Edit notes</GuardedButton>}
      </div>
      <ErrorNotice error={action.error} />
      {editing
        ? <form onSubmit={save}>
          <TextArea label="Notes (Markdown)" value={text} rows={10} onInput={(event) => setText((event.target as HTMLTextAreaElement).value)}
            hint="Headings, lists, emphasis, code, tables and links; anything else is removed when shown." />
          <div class="page-actions">
            <button type="submit" class="button" disabled={action.busy}>{action.busy ? 'Saving…' : 'Save notes'}</button>
            <button type="button" class="button secondary" onClick={() => setEditing(false)}>Cancel</button>
          </div>
        </form>
        // The HTML comes from the service's one Markdown renderer, which keeps only an allow-list of tags (shared/markdown.ts).
        : version.releaseNotesHtml
          ? <div class="markdown" dangerouslySetInnerHTML={{ __html: version.releaseNotesHtml }} />
          : <p class="hint">No release notes.</p>}
    </section>
  );
}

function Digest({ label, value }: { label: string; value: string | null }) {
  if (!value) return <span class="hint">being computed</span>;
  return <span class="digest"><code title={value}>{value.slice(0, 16)}…</code> <CopyButton value={value} label={`Copy ${label}`} /></span>;
}

function fileStatus(file: FileSummary) {
  if (file.status === 'available') return <span class="badge ok">verified</span>;
  if (file.status === 'pending') return <span class="badge warn">verifying</span>;
  return <><span class="badge bad">failed</span> <span class="hint">the upload's verification refused it (see its upload); delete it and upload again</span></>;
}

/** What the matrix says of a file's signature: a SIGNATURE file's verification, or the signature that signs this file (by its name, else the MAIN file's). */
function signatureCell(file: FileSummary, files: readonly FileSummary[], signingKey: boolean) {
  if (file.fileType === 'SIGNATURE') {
    if (file.signatureProblem) return <><span class="badge bad">does not verify</span> <span class="hint">{file.signatureProblem}</span></>;
    if (!signingKey) return <span class="badge">not checked (no signing key)</span>;
    return file.status === 'available' ? <span class="badge ok">verified</span> : <span class="hint">—</span>;
  }
  const signature = signatureOf(file, files);
  if (!signature) return <span class="hint">{file.fileType === 'MAIN' ? 'none' : '—'}</span>;
  const by = <span class="hint"> ({signature.fileName})</span>;
  return signature.signatureProblem ? <><span class="badge bad">present, does not verify</span>{by}</>
    : <><span class={`badge${signingKey ? ' ok' : ''}`}>{signingKey ? 'present, verified' : 'present'}</span>{by}</>;
}

/** A file may be deleted when it failed, or when its version is a draft (a shipped version's files stay: yank it). */
const deletable = (file: FileSummary, version: VersionSummary) => file.status === 'failed' || version.status === 'draft';

/**
 * The version's files, one row each: the name with its target and type under it, size, digests,
 * status, signature and delete. Narrow screens show each row as a block (the headings beside each
 * value), so no column is ever hidden off the side.
 */
function FileMatrix({ applicationId, version, signingKey, permission, onChanged }: {
  applicationId: string; version: VersionSummary; signingKey: boolean; permission: Permission; onChanged: () => void;
}) {
  const { files } = version;
  const sorted = [...files].sort(byTarget);
  const action = useAction();
  const remove = (file: FileSummary) => action.run(async () => {
    if (!confirm(`Delete ${file.fileName} and its bytes? This cannot be undone.`)) return;
    await client.deleteVersionFile({ applicationId, version: version.version, fileId: file.fileId });
    onChanged();
  });
  return (
    <section aria-labelledby="files-heading">
      <h2 id="files-heading">Files</h2>
      <ErrorNotice error={action.error} />
      {sorted.length === 0 ? <p>No file yet: drop them below.</p> : (
        <table class="file-matrix">
          <caption class="visually-hidden">Files by platform, arch and type</caption>
          <thead><tr>
            <th scope="col">File</th><th scope="col">Size</th><th scope="col">Digests</th><th scope="col">Status</th><th scope="col">Signature</th><th scope="col"><span class="visually-hidden">Actions</span></th>
          </tr></thead>
          <tbody>
            {sorted.map((file) => (
              <tr key={file.fileId}>
                <td data-label="File"><span class="mono file-name">{file.fileName}</span><br />
                  <span class="hint">{file.platform} · {file.arch} · {file.fileType}</span></td>
                <td data-label="Size">{formatBytes(file.fileSize)}</td>
                <td data-label="Digests" class="digests">
                  <span>SHA-256 <Digest label="SHA-256" value={file.checksum?.replace(/^sha256:/, '') ?? null} /></span>
                  <span>SHA-512 <Digest label="SHA-512" value={file.sha512} /></span>
                </td>
                <td data-label="Status">{fileStatus(file)}</td>
                <td data-label="Signature">{signatureCell(file, files, signingKey)}</td>
                <td data-label="Actions">{deletable(file, version)
                  && <GuardedButton allowed={permission.allowed && !action.busy} reason={permission.reason || 'Deleting…'} class="button danger button-small"
                    aria-label={`Delete ${file.fileName}`} onClick={() => remove(file)}>Delete</GuardedButton>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
