import { useState } from 'preact/hooks';
import type { releaseListResponse } from '../../shared/contract/releases';
import { primaryBuilds, type VisitorPlatform } from '../../shared/releases/visitor-platform';
import type { Wire } from '../common/api';
import { CopyButton, ErrorNotice } from '../common/components';
import { formatBytes } from '../../shared/byte-sizes';
import { formatDate } from '../common/format';
import { useLoad } from '../common/hooks';
import { customerClient, customerPath, type Credential } from './credential';
import type { PortalApplication } from './portal-application';
import { targetName } from './visitor';

export type Release = Wire<typeof releaseListResponse>['releases'][number];
type ReleaseFile = Release['files'][number];

/** The files a person installs: MAIN builds (updates, signatures and blockmaps are for update clients). */
const installable = (files: readonly ReleaseFile[]) => files.filter((file) => file.fileType === 'MAIN');

/** A build offered for the visitor's system: the file and the release it belongs to. */
interface SystemBuild {
  version: string;
  file: ReleaseFile;
}

/**
 * The builds for the visitor's system in a channel, one per arch it may be (both on a Mac): this
 * release's when it has one, else what the latest link of that platform and arch offers, which is the
 * first release of the listing asked with the same selectors (the service's one rule: the newest
 * offered release with a build for them, within the customer's channel, tier, rollout and token).
 */
async function systemBuilds(credential: Credential, application: PortalApplication, release: Release, visitor: VisitorPlatform, signal: AbortSignal): Promise<SystemBuild[]> {
  const { platform } = visitor;
  // A visitor's system is never `any` (that is what a file says when it fits every one).
  if (platform === null || platform === 'any') return [];
  const builds: SystemBuild[] = [];
  for (const arch of visitor.archs) {
    const own = primaryBuilds(installable(release.files), { ...visitor, archs: [arch] })[0];
    let build: SystemBuild | undefined = own && { version: release.version, file: own };
    if (!build && arch !== 'any') {
      const listed = await customerClient(credential).listReleases(
        { applicationId: application.applicationId, channel: release.channel, platform, arch, pageSize: 1 }, { signal },
      );
      const newest = listed.releases[0];
      const file = newest && primaryBuilds(installable(newest.files), { ...visitor, archs: [arch] })[0];
      if (file) build = { version: newest.version, file };
    }
    if (build && !builds.some((known) => known.file.fileId === build!.file.fileId)) builds.push(build);
  }
  return builds;
}

/**
 * One release: its primary download(s) for the visitor's system, every other build, notes, date, sizes,
 * SHA-256 with a copy button, and a command line for servers. Every download is a normal one: the
 * service signs a URL for this customer (rules, limits, events), then the browser follows it.
 */
export function ReleaseView({ release, application, credential, visitor, primary, onRefused }: {
  release: Release;
  application: PortalApplication;
  credential: Credential;
  visitor: VisitorPlatform;
  primary: boolean;
  onRefused: (error: unknown, retry: () => void) => boolean;
}) {
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState<string | null>(null);
  const [filesOpen, setFilesOpen] = useState(false);
  const files = installable(release.files);
  const system = useLoad((signal) => (primary ? systemBuilds(credential, application, release, visitor, signal) : Promise.resolve([])),
    [primary, release, application.applicationId, credential, visitor]);
  const preferred = system.data ?? [];
  const others = files.filter((file) => !preferred.some((build) => build.file.fileId === file.fileId));
  const earlier = preferred.filter((build) => build.version !== release.version);
  const systemName = visitor.platform && targetName(visitor.platform, 'any');

  const download = async (file: ReleaseFile, version: string) => {
    setError(undefined);
    setBusy(file.fileId);
    try {
      const signed = await customerClient(credential).getDownloadUrl({ applicationId: application.applicationId, version, fileId: file.fileId });
      location.assign(signed.downloadUrl);
    } catch (failure) {
      if (!onRefused(failure, () => void download(file, version))) setError(failure);
    } finally {
      setBusy(null);
    }
  };

  const button = (file: ReleaseFile, version: string, main: boolean) => (
    <button key={file.fileId} type="button" class={main ? 'button' : 'button secondary'} disabled={busy === file.fileId}
      onClick={() => void download(file, version)}>
      {main
        ? `Download for ${targetName(file.platform, file.arch)}${version === release.version ? '' : ` (version ${version})`}`
        : `${targetName(file.platform, file.arch)}: ${file.fileName}`}
    </button>
  );

  return (
    <article class="release" aria-label={`Version ${release.version}`}>
      <h3>Version {release.version} <span class="badge">{release.channel}</span></h3>
      <p class="release-meta">Released {formatDate(release.publishedAt)}</p>
      <ErrorNotice error={error ?? system.error} />
      {earlier.length > 0 && (
        <p>Detected {systemName}: version {release.version} has {earlier.length === preferred.length ? 'no build' : 'not every build'} for it; the newest with one: version {[...new Set(earlier.map((build) => build.version))].join(', version ')}.</p>
      )}
      {preferred.length > 0 && <div class="downloads">{preferred.map((build) => button(build.file, build.version, true))}</div>}
      {primary && !system.loading && preferred.length === 0 && files.length > 0 && (
        visitor.platform
          ? <p>Detected {systemName}: no build for it is available to you yet. Choose one below.</p>
          : <p>No build for your system was detected (a phone or an unknown system): choose one below.</p>
      )}
      {others.length > 0 && <div class="downloads">{others.map((file) => button(file, release.version, false))}</div>}
      {release.releaseNotesHtml && (
        <details open={primary}>
          <summary>Release notes</summary>
          {/* Rendered and sanitized by the service (shared/markdown.ts): no script, style or event handler survives. */}
          <div class="markdown" dangerouslySetInnerHTML={{ __html: release.releaseNotesHtml }} />
        </details>
      )}
      <details onToggle={(event) => setFilesOpen((event.currentTarget as HTMLDetailsElement).open)}>
        <summary>Files, checksums and command line</summary>
        <div class="table-wrap">
          <table>
            <thead><tr><th scope="col">File</th><th scope="col">System</th><th scope="col">Size</th><th scope="col">SHA-256</th></tr></thead>
            <tbody>
              {files.map((file) => (
                <tr key={file.fileId}>
                  <td>{file.fileName}</td>
                  <td>{targetName(file.platform, file.arch)}</td>
                  <td>{formatBytes(file.fileSize)}</td>
                  <td class="checksum"><code>{file.checksum.replace(/^sha256:/, '')}</code><CopyButton value={file.checksum.replace(/^sha256:/, '')} label="Copy SHA-256" /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {filesOpen && files.length > 0 && (
          <section class="provenance-list" aria-label="Provenance">
            <h4>Provenance</h4>
            {files.map((file) => (
              <div key={file.fileId}><span class="file-name">{file.fileName}</span><Provenance credential={credential} fileId={file.fileId} /></div>
            ))}
          </section>
        )}
        {files.length > 0 && <CommandLine credential={credential} application={application} release={release} file={preferred.find((build) => build.version === release.version)?.file ?? files[0]} />}
      </details>
    </article>
  );
}

/** `curl` for servers: the latest link of the file's system (this release while it is the newest of its channel). */
function CommandLine({ credential, application, release, file }: { credential: Credential; application: PortalApplication; release: Release; file: ReleaseFile }) {
  const link = customerClient(credential);
  const latest = file.arch === 'any'
    ? link.path('getLatestDownload', { applicationId: application.applicationId, platform: file.platform }, { channel: release.channel })
    : link.path('getLatestDownloadForArch', { applicationId: application.applicationId, platform: file.platform, arch: file.arch }, { channel: release.channel });
  const url = `${location.origin}${customerPath(credential, latest)}`;
  const header = credential.kind === 'key' ? ' -H "Authorization: Bearer $BDS_KEY"' : '';
  const command = `curl -fL -o '${file.fileName.replace(/'/g, "'\\''")}'${header} '${url}'`;
  return (
    <div>
      <p>On a server{credential.kind === 'key' ? ' (with your key in BDS_KEY)' : ''}, the newest build for {targetName(file.platform, file.arch)} on the {release.channel} channel:</p>
      <pre class="command" tabIndex={0} aria-label="Command line"><code>{command}</code></pre>
      <CopyButton value={command} label="Copy command" />
    </div>
  );
}

/**
 * What the file's provenance attestations say of its build, read when the files are shown: "built by
 * ..., from commit ..." from the SLSA predicate, with whether the service verified the signature.
 */
function Provenance({ credential, fileId }: { credential: Credential; fileId: string }) {
  const { data, error, loading } = useLoad(
    (signal) => customerClient(credential).listDownloadAttestations({ fileId }, { signal }),
    [fileId],
  );
  if (loading && !data) return <span>Loading…</span>;
  if (error) return <span>Not available</span>;
  const stated = (data?.attestations ?? []).filter((attestation) => attestation.provenance.builderId || attestation.provenance.sourceCommit);
  if (stated.length === 0) return <span>None published</span>;
  return (
    <ul class="provenance">
      {stated.map((attestation) => {
        const { builderId, sourceRepository, sourceCommit } = attestation.provenance;
        const verified = attestation.verification.status === 'verified';
        return (
          <li key={attestation.attestationId}>
            provenance: {builderId ? <>built by <code>{builderId}</code></> : 'builder not stated'}
            {sourceCommit && <>, from commit <code>{sourceCommit}</code>{sourceRepository && <> of <code>{sourceRepository}</code></>}</>}
            {' '}<span class={verified ? 'badge ok' : attestation.verification.status === 'failed' ? 'badge bad' : 'badge warn'}>{verified ? 'signature verified' : attestation.verification.status === 'failed' ? 'signature does not verify' : 'signature not verified'}</span>
          </li>
        );
      })}
    </ul>
  );
}
