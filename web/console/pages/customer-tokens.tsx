import { useState } from 'preact/hooks';
import type { accessTokenListResponse, issuedAccessTokenResponse } from '../../../shared/contract/access-tokens';
import type { applicationListResponse } from '../../../shared/contract/applications';
import { ACCESS_TOKEN_RESET_PERIODS } from '../../../shared/policy';
import { ConfirmButton, useAction } from '../../common/actions';
import { client, newIdempotencyKey, type Wire } from '../../common/api';
import { CopyButton, ErrorNotice, GuardedButton, SelectField, TextField } from '../../common/components';
import { formatBytes } from '../../../shared/byte-sizes';
import { formatDate, formatDateTime } from '../../common/format';
import { updatesUntilOf } from '../maintenance-window';
import { useLoad, type Loaded } from '../../common/hooks';
import { usePermission } from '../caller';
import { fieldError } from '../application-fields';
import { DAY_MS } from '../../../shared/durations';

type TokenList = Wire<typeof accessTokenListResponse>;
type IssuedToken = Wire<typeof issuedAccessTokenResponse>;
type ApplicationList = Wire<typeof applicationListResponse>;

const MIB = 1024 * 1024;

/** A token's limits in words, for the list. */
function limitsOf(token: TokenList['tokens'][number], names: Map<string, string>): string {
  const parts: string[] = [];
  const per = token.resetEvery ? ` a ${token.resetEvery}` : '';
  if (token.maxDownloads !== null) parts.push(`${token.maxDownloads} downloads${per}`);
  if (token.maxClients !== null) parts.push(`${token.maxClients} clients${per}`);
  if (token.maxBytes !== null) parts.push(`${formatBytes(token.maxBytes)}${per}`);
  if (token.applications) parts.push(token.applications.map((id) => names.get(id) ?? id).join(', '));
  if (token.validUntil) parts.push(`until ${formatDateTime(token.validUntil)}`);
  if (token.versionRange) parts.push(`versions ${token.versionRange}`);
  if (token.updatesUntil) parts.push(`releases before ${formatDate(token.updatesUntil)}`);
  return parts.join(' · ') || 'no limit';
}

/**
 * A customer's access tokens: a credential for downloads and update checks with limits of its own,
 * handed out as a portal link. Created with its limits (the link shown once, with a copy button),
 * listed, revoked.
 */
export function AccessTokens({ customerId, active, granted }: { customerId: string; active: boolean; granted: Loaded<ApplicationList> }) {
  const manage = usePermission('manage');
  const tokens = useLoad((signal) => client.listAccessTokens({ customerId }, { signal }), [customerId]);
  const [issued, setIssued] = useState<IssuedToken | null>(null);
  const [name, setName] = useState('');
  const [maxDownloads, setMaxDownloads] = useState('');
  const [maxClients, setMaxClients] = useState('');
  const [maxMiB, setMaxMiB] = useState('');
  const [resetEvery, setResetEvery] = useState<'' | 'day' | 'week' | 'month'>('');
  const [validDays, setValidDays] = useState('30');
  const [application, setApplication] = useState('');
  const [versionRange, setVersionRange] = useState('');
  const [updatesUntil, setUpdatesUntil] = useState('');
  const action = useAction();
  const applications = granted.data?.applications ?? [];
  const names = new Map(applications.map((a) => [a.applicationId, a.name]));
  const number = (text: string) => (text.trim() ? Number(text.trim()) : undefined);
  const create = async (event: Event) => {
    event.preventDefault();
    const days = number(validDays);
    const token = await action.run(() => client.createAccessToken({ customerId }, {
      ...(name.trim() ? { name: name.trim() } : {}),
      ...(number(maxDownloads) !== undefined ? { maxDownloads: number(maxDownloads) } : {}),
      ...(number(maxClients) !== undefined ? { maxClients: number(maxClients) } : {}),
      ...(number(maxMiB) !== undefined ? { maxBytes: Math.round((number(maxMiB) as number) * MIB) } : {}),
      ...(resetEvery ? { resetEvery } : {}),
      ...(days !== undefined ? { validUntil: new Date(Date.now() + days * DAY_MS).toISOString() } : {}),
      ...(application ? { applications: [application] } : {}),
      ...(versionRange.trim() ? { versionRange: versionRange.trim() } : {}),
      ...(updatesUntil ? { updatesUntil: updatesUntilOf(updatesUntil) } : {}),
    }, { idempotencyKey: newIdempotencyKey() }));
    if (token) { setIssued(token); tokens.reload(); }
  };
  const revoke = async (tokenId: string) => {
    if (await action.run(() => client.revokeAccessToken({ customerId, tokenId })) !== undefined) tokens.reload();
  };
  return (
    <section class="card" aria-labelledby="customer-tokens">
      <h2 id="customer-tokens">Access tokens</h2>
      <p class="hint">A token downloads as this customer within its own limits; people open it as a portal link, update clients send it as a key.</p>
      {issued && (
        <div class="notice notice-warning shown-once" role="alert">
          <strong>Portal link for {issued.name ?? 'the new token'}:</strong>
          <p>Copy it now and hand it over: <strong>it will not be shown again</strong>.</p>
          <p class="secret"><code data-secret>{issued.portalUrl}</code></p>
          <div class="page-actions">
            <CopyButton value={issued.portalUrl} label="Copy portal link" />
            <CopyButton value={issued.token} label="Copy token" />
            <button type="button" class="button secondary button-small" onClick={() => setIssued(null)}>I have saved it</button>
          </div>
        </div>
      )}
      <ErrorNotice error={tokens.error ?? action.error} onRetry={tokens.error ? tokens.reload : undefined} />
      {tokens.data && tokens.data.tokens.length === 0 && <p>No active token.</p>}
      {tokens.data && tokens.data.tokens.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Active access tokens</caption>
            <thead><tr><th scope="col">Token</th><th scope="col">Limits</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {tokens.data.tokens.map((token) => (
                <tr key={token.tokenId}>
                  <td>{token.name ?? <span class="hint">unnamed</span>} <code class="hint">{token.prefix}…</code></td>
                  <td>{limitsOf(token, names)}</td>
                  <td>{token.lastUsedAt ? formatDateTime(token.lastUsedAt) : 'never'}</td>
                  <td>{manage.allowed
                    ? <ConfirmButton label="Revoke" confirmLabel="Yes, revoke" question={`Revoke ${token.name ?? `token ${token.prefix}…`}?`} busy={action.busy} onConfirm={() => void revoke(token.tokenId)} />
                    : <GuardedButton allowed={false} reason={manage.reason}>Revoke</GuardedButton>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {!manage.allowed && <GuardedButton allowed={false} reason={manage.reason}>New access token</GuardedButton>}
      {manage.allowed && active && (
        <form onSubmit={create} aria-label="New access token">
          <h3>New access token</h3>
          <div class="grid-2">
            <TextField label="Token name" hint="Who or what it is for, e.g. Build farm" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} error={fieldError(action.error, 'name')} />
            <SelectField label="Token application" value={application} onChange={(e) => setApplication((e.target as HTMLSelectElement).value)}
              options={[{ value: '', label: 'Every granted application' }, ...applications.map((a) => ({ value: a.applicationId, label: a.name }))]} />
            <TextField label="Downloads allowed" type="number" min={1} hint="Empty for no cap" value={maxDownloads} onInput={(e) => setMaxDownloads((e.target as HTMLInputElement).value)}
              error={fieldError(action.error, 'maxDownloads')} />
            <TextField label="Clients allowed" type="number" min={1} hint="Distinct machines; empty for no cap" value={maxClients} onInput={(e) => setMaxClients((e.target as HTMLInputElement).value)}
              error={fieldError(action.error, 'maxClients')} />
            <TextField label="Data allowed in MiB" type="number" min={1} hint="Empty for no cap" value={maxMiB} onInput={(e) => setMaxMiB((e.target as HTMLInputElement).value)}
              error={fieldError(action.error, 'maxBytes')} />
            <SelectField label="Limits reset" value={resetEvery} onChange={(e) => setResetEvery((e.target as HTMLSelectElement).value as typeof resetEvery)}
              options={[{ value: '', label: 'Never (limits for its whole life)' }, ...ACCESS_TOKEN_RESET_PERIODS.map((p) => ({ value: p, label: `Every ${p}` }))]} />
            <TextField label="Valid for days" type="number" min={1} hint="Empty: until revoked" value={validDays} onInput={(e) => setValidDays((e.target as HTMLInputElement).value)}
              error={fieldError(action.error, 'validUntil')} />
            <TextField label="Token versions" hint="A semver range such as <3; empty: the customer's" value={versionRange}
              onInput={(e) => setVersionRange((e.target as HTMLInputElement).value)} error={fieldError(action.error, 'versionRange')} />
            <TextField label="Token releases published before" type="date" hint="Empty: the customer's" value={updatesUntil}
              onInput={(e) => setUpdatesUntil((e.target as HTMLInputElement).value)} error={fieldError(action.error, 'updatesUntil')} />
          </div>
          <button type="submit" class="button" disabled={action.busy}>{action.busy ? 'Creating…' : 'Create access token'}</button>
        </form>
      )}
    </section>
  );
}
