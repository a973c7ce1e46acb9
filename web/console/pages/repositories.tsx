import { useState } from 'preact/hooks';
import type { repositoriesResponse } from '../../../shared/contract/repositories';
import { client, type Wire } from '../../common/api';
import { CopyButton, ErrorNotice, GuardedButton, Loading, Notice, PageHeader, TextArea, TextField } from '../../common/components';
import { formatDateTime } from '../../common/format';
import { useLoad } from '../../common/hooks';
import { ScrollTable } from '../../common/scroll-table';
import { usePermission } from '../caller';
import { useAction } from '../use-action';
import { applicationPath } from './applications';

type Repositories = Wire<typeof repositoriesResponse>;
type RepositoryPackage = Repositories['channels'][number]['packages'][number];

export const repositoriesPath = (applicationId: string) => `${applicationPath(applicationId)}/repositories`;

/**
 * An application's apt and rpm repositories: per channel, which package versions apt serves for each
 * arch and which files dnf lists; the signing keys with their retire dates; rotating the key and
 * importing the vendor's own.
 */
export function RepositoriesPage({ params }: { params: Record<string, string> }) {
  const { applicationId } = params;
  const loaded = useLoad((signal) => client.getApplicationRepositories({ applicationId }, { signal }), [applicationId]);
  const canManage = usePermission('manage', applicationId);
  const [importing, setImporting] = useState(false);
  const [changed, setChanged] = useState<string | null>(null);
  const action = useAction();
  document.title = `Package repositories · ${applicationId}`;
  const rotate = () => action.run(async () => {
    if (!confirm('Make a new signing key current? The current one keeps signing, and stays in key.asc, for 30 days.')) return;
    await client.rotateRepositoryKey({ applicationId }, {});
    setChanged('A new signing key is current; the previous one keeps signing for its overlap.');
    loaded.reload();
  });
  return (
    <>
      <PageHeader title="Package repositories">
        <GuardedButton allowed={canManage.allowed} reason={canManage.reason} onClick={rotate} disabled={action.busy}>Rotate signing key</GuardedButton>
        <GuardedButton allowed={canManage.allowed} reason={canManage.reason} class="button secondary" onClick={() => { setChanged(null); setImporting(!importing); }} aria-expanded={importing}>Import a key</GuardedButton>
      </PageHeader>
      <p><a href={applicationPath(applicationId)}>Back to the application</a></p>
      <ErrorNotice error={action.error} />
      {changed && <Notice kind="success">{changed}</Notice>}
      {importing && (
        <ImportKey applicationId={applicationId} onDone={(imported) => {
          setImporting(false);
          if (imported) { setChanged('Your key is current; the previous one keeps signing for its overlap.'); loaded.reload(); }
        }} />
      )}
      <ErrorNotice error={loaded.error} onRetry={loaded.reload} />
      {!loaded.data && !loaded.error && <Loading />}
      {loaded.data && <RepositoryContents data={loaded.data} />}
    </>
  );
}

function RepositoryContents({ data }: { data: Repositories }) {
  return (
    <>
      <section class="card" aria-labelledby="keys-heading">
        <h2 id="keys-heading">Signing keys</h2>
        {data.keys.length === 0
          ? <p>No key yet: the service generates one (Ed25519) the first time a customer asks for a repository, or import yours.</p>
          : (
            <ScrollTable label="Signing keys">
              <table>
                <thead><tr><th scope="col">Fingerprint</th><th scope="col">Algorithm</th><th scope="col">Origin</th><th scope="col">Created</th><th scope="col">Retires</th><th scope="col">Public key</th></tr></thead>
                <tbody>
                  {data.keys.map((key) => (
                    <tr key={key.fingerprint}>
                      <td><code class="fingerprint">{key.fingerprint}</code></td>
                      <td>{key.algorithm}</td>
                      <td>{key.origin}</td>
                      <td>{formatDateTime(key.createdAt)}</td>
                      <td>{key.retiresAt ? formatDateTime(key.retiresAt) : <span class="badge ok">current</span>}</td>
                      <td><CopyButton value={key.publicKey} label="Copy public key" /></td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollTable>
          )}
        <p class="hint">Customers fetch them at <code>{data.paths.apt}/key.asc</code> and <code>{data.paths.rpm}/key.asc</code>.</p>
      </section>
      {data.channels.map(({ channel, packages }) => <ChannelContents key={channel} channel={channel} packages={packages} paths={data.paths} />)}
    </>
  );
}

/** What one channel's repositories serve: apt's versions per arch (its Packages indexes) and dnf's files. */
function ChannelContents({ channel, packages, paths }: { channel: string; packages: RepositoryPackage[]; paths: Repositories['paths'] }) {
  const debs = packages.filter((pkg) => pkg.format === 'deb');
  const rpms = packages.filter((pkg) => pkg.format === 'rpm');
  const arches = [...new Set(debs.map((pkg) => pkg.packageArch))];
  const headingId = `channel-${channel}`;
  return (
    <section class="card" aria-labelledby={headingId}>
      <h2 id={headingId}>Channel {channel}</h2>
      {packages.length === 0 && <p>No published .deb or .rpm file on this channel (or a more stable one).</p>}
      {debs.length > 0 && (
        <>
          <h3>apt: <code>{paths.apt}</code> suite <code>{channel}</code></h3>
          <ScrollTable label={`apt packages of ${channel}`}>
            <table>
              <thead><tr><th scope="col">Index</th><th scope="col">Package versions</th></tr></thead>
              <tbody>
                {arches.map((arch) => (
                  <tr key={arch}>
                    <th scope="row"><code>binary-{arch}/Packages</code></th>
                    <td>{debs.filter((pkg) => pkg.packageArch === arch).map((pkg) => <PackageLine key={pkg.fileId} pkg={pkg} />)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollTable>
        </>
      )}
      {rpms.length > 0 && (
        <>
          <h3>dnf: <code>{paths.rpm}/{channel}</code></h3>
          <ScrollTable label={`rpm packages of ${channel}`}>
            <table>
              <thead><tr><th scope="col">Package</th><th scope="col">Arch</th><th scope="col">File</th><th scope="col">Offered to</th></tr></thead>
              <tbody>
                {rpms.map((pkg) => (
                  <tr key={pkg.fileId}>
                    <td>{pkg.packageName} {pkg.packageVersion}</td>
                    <td>{pkg.packageArch}</td>
                    <td><code>{pkg.fileName}</code></td>
                    <td>{offeredTo(pkg)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollTable>
        </>
      )}
    </section>
  );
}

function PackageLine({ pkg }: { pkg: RepositoryPackage }) {
  return <div>{pkg.packageName} {pkg.packageVersion} <span class="hint">({pkg.fileName}; {offeredTo(pkg)})</span></div>;
}

/** Who of the channel's customers gets the package: the tier and rollout still narrow it. */
function offeredTo(pkg: RepositoryPackage): string {
  const tier = pkg.requiredTier ? `tier ${pkg.requiredTier} and up` : 'every tier';
  return pkg.rolloutPercentage < 100 ? `${tier}, ${pkg.rolloutPercentage}% rollout` : tier;
}

function ImportKey({ applicationId, onDone }: { applicationId: string; onDone: (imported: boolean) => void }) {
  const [privateKey, setPrivateKey] = useState('');
  const [passphrase, setPassphrase] = useState('');
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const ok = await action.run(() => client.importRepositoryKey({ applicationId }, { privateKey, ...(passphrase ? { passphrase } : {}) }));
    if (ok) onDone(true);
  };
  return (
    <form class="card" onSubmit={submit} aria-labelledby="import-key-heading">
      <h2 id="import-key-heading">Import a signing key</h2>
      <ErrorNotice error={action.error} />
      <TextArea label="Armoured OpenPGP private key" hint="Ed25519, or RSA of 3072 bits and more (gpg --armor --export-secret-keys). It is kept sealed and never leaves the service."
        required rows={8} value={privateKey} onInput={(event) => setPrivateKey((event.currentTarget as HTMLTextAreaElement).value)} />
      <TextField label="Passphrase (if the key has one)" type="password" autoComplete="off" value={passphrase}
        onInput={(event) => setPassphrase((event.currentTarget as HTMLInputElement).value)} />
      <div class="page-actions">
        <button type="submit" class="button" disabled={action.busy}>{action.busy ? 'Importing…' : 'Import key'}</button>
        <button type="button" class="button secondary" onClick={() => onDone(false)}>Cancel</button>
      </div>
    </form>
  );
}
