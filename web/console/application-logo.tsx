// The application's logo, as the download portal shows it beside the name: the current one, a file
// chosen to replace it (previewed before it is sent), and its removal.
import { useEffect, useState } from 'preact/hooks';
import type { applicationResponse } from '../../shared/contract/applications';
import { LOGO_CONTENT_TYPES, LOGO_MAX_BYTES } from '../../shared/policy';
import { client, session, type Wire } from '../common/api';
import { AuthorizedImage } from '../common/authorized-image';
import { ErrorNotice, GuardedButton } from '../common/components';
import { formatBytes } from '../../shared/byte-sizes';
import { formatDateTime } from '../common/format';
import { useAction } from './use-action';

type Application = Wire<typeof applicationResponse>;

export function ApplicationLogoPanel({ app, canManage, onChanged }: { app: Application; canManage: { allowed: boolean; reason: string }; onChanged: () => void }) {
  const [chosen, setChosen] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const action = useAction();
  const { applicationId } = app;
  const name = app.displayName ?? app.name;
  useEffect(() => {
    if (!chosen) return undefined;
    const url = URL.createObjectURL(chosen);
    setPreview(url);
    return () => {
      URL.revokeObjectURL(url);
      setPreview(null);
    };
  }, [chosen]);

  const choose = (event: Event) => {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0] ?? null;
    action.clear();
    // Told at once rather than after sending: the service refuses the same.
    if (file && !(LOGO_CONTENT_TYPES as readonly string[]).includes(file.type)) setProblem('Choose a PNG, JPEG or WebP image.');
    else if (file && file.size > LOGO_MAX_BYTES) setProblem(`This image is ${formatBytes(file.size)}: a logo is at most ${formatBytes(LOGO_MAX_BYTES)}.`);
    else setProblem(null);
    setChosen(file);
  };
  const upload = () => action.run(async () => {
    if (!chosen) return;
    await client.setApplicationLogo({ applicationId }, { bytes: chosen, contentType: chosen.type || 'application/octet-stream' });
    setChosen(null);
    onChanged();
  });
  const remove = () => action.run(async () => {
    if (!confirm(`Remove the logo of ${name}? The portal then shows its name alone.`)) return;
    await client.removeApplicationLogo({ applicationId });
    onChanged();
  });

  return (
    <section class="card" aria-labelledby="logo-heading">
      <h2 id="logo-heading">Logo</h2>
      <p class="hint">Shown beside the application's name in the download portal: a PNG, JPEG or WebP image of up to {formatBytes(LOGO_MAX_BYTES)}.</p>
      {app.logo
        ? (
          <div class="logo-current">
            <AuthorizedImage path={client.path('getAdminApplicationLogo', { applicationId })} bearer={session.key()} alt={`Logo of ${name}`} version={app.logo.sha256} size={64} />
            <p>{app.logo.contentType}, {formatBytes(app.logo.size)}, set {formatDateTime(app.logo.updatedAt)}</p>
          </div>
        )
        : <p>No logo: the portal shows the name alone.</p>}
      <ErrorNotice error={action.error} />
      {!app.deletedAt && (
        <>
          <div class="field">
            <label for="logo-file">{app.logo ? 'Replace the logo' : 'Choose a logo'}</label>
            {/* Keyed by the logo set: a new one empties the picker. */}
            <input key={app.logo?.sha256 ?? 'none'} id="logo-file" type="file" accept={LOGO_CONTENT_TYPES.join(',')} onChange={choose} disabled={!canManage.allowed || action.busy}
              aria-describedby={problem ? 'logo-file-problem' : undefined} aria-invalid={problem ? true : undefined} />
            {problem && <p class="field-error" id="logo-file-problem">{problem}</p>}
          </div>
          {preview && !problem && <p class="logo-preview"><img src={preview} alt={`Preview of the chosen logo for ${name}`} width={64} height={64} /></p>}
          <div class="page-actions">
            <GuardedButton allowed={canManage.allowed} reason={canManage.reason} onClick={upload} disabled={!chosen || problem !== null || action.busy}>Upload logo</GuardedButton>
            {app.logo && (
              <GuardedButton allowed={canManage.allowed} reason={canManage.reason} class="button danger" onClick={remove} disabled={action.busy}>Remove logo</GuardedButton>
            )}
          </div>
        </>
      )}
    </section>
  );
}
