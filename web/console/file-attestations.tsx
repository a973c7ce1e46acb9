import { useState } from 'preact/hooks';
import type { attestationListResponse } from '../../shared/contract/attestations';
import { ApiError, client, type Wire } from '../common/api';
import { ErrorNotice, Loading, Notice } from '../common/components';
import { formatDateTime } from '../common/format';
import { useLoad } from '../common/hooks';
import { ScrollTable } from '../common/scroll-table';
import type { Permission } from './caller';
import { useAction } from './use-action';

type AttestationList = Wire<typeof attestationListResponse>;
type Attestation = AttestationList['attestations'][number];

interface AttestedFile {
  fileId: string;
  fileName: string;
  status: string;
}

const FORMAT_NAMES: Record<Attestation['format'], string> = { dsse: 'DSSE envelope', 'sigstore-bundle': 'Sigstore bundle' };

/**
 * The provenance attestations of a version's files: per available file, each attestation's type, the
 * offline check of its signature, and the builder and commit its SLSA predicate names; a vendor adds
 * one from a JSON file (a DSSE envelope or a Sigstore bundle), and a refusal is shown in the
 * service's words.
 */
export function FileAttestations({ applicationId, version, files, permission }: {
  applicationId: string; version: string; files: readonly AttestedFile[]; permission: Permission;
}) {
  const available = files.filter((file) => file.status === 'available');
  return (
    <section class="card" aria-labelledby="attestations-heading">
      <h2 id="attestations-heading">Provenance attestations</h2>
      {available.length === 0 && <p>No available file yet: attestations are added to a file once it is verified.</p>}
      {available.map((file) => <FileAttestationList key={file.fileId} applicationId={applicationId} version={version} file={file} permission={permission} />)}
    </section>
  );
}

function FileAttestationList({ applicationId, version, file, permission }: {
  applicationId: string; version: string; file: AttestedFile; permission: Permission;
}) {
  const target = { applicationId, version, fileId: file.fileId };
  const loaded = useLoad((signal) => client.listFileAttestations(target, { signal }), [applicationId, version, file.fileId]);
  const action = useAction();
  const [added, setAdded] = useState<string | null>(null);
  const upload = (input: HTMLInputElement) => action.run(async () => {
    const chosen = input.files?.[0];
    input.value = '';
    if (!chosen) return;
    setAdded(null);
    let body: Parameters<typeof client.addFileAttestation>[1];
    try {
      body = JSON.parse(await chosen.text());
    } catch {
      throw new ApiError(400, 'VALIDATION_ERROR', `${chosen.name} is not JSON: choose a DSSE envelope or a Sigstore bundle`);
    }
    await client.addFileAttestation(target, body);
    setAdded(chosen.name);
    loaded.reload();
  });
  const headingId = `attestations-${file.fileId}`;
  const inputId = `attestation-input-${file.fileId}`;
  return (
    <div class="file-attestations">
      <h3 id={headingId} class="mono file-name">{file.fileName}</h3>
      <ErrorNotice error={loaded.error} onRetry={loaded.reload} />
      {!loaded.data && !loaded.error && <Loading label="Loading attestations" />}
      {loaded.data && loaded.data.attestations.length === 0 && <p class="hint">No attestation.</p>}
      {loaded.data && loaded.data.attestations.length > 0 && (
        <ScrollTable label={`Attestations of ${file.fileName}`}>
          <table>
            <thead><tr><th scope="col">Type</th><th scope="col">Signature</th><th scope="col">Built by</th><th scope="col">From commit</th><th scope="col">Added</th></tr></thead>
            <tbody>
              {loaded.data.attestations.map((attestation) => <AttestationRow key={attestation.attestationId} attestation={attestation} />)}
            </tbody>
          </table>
        </ScrollTable>
      )}
      {added && <Notice kind="success">Attestation added from {added}.</Notice>}
      <ErrorNotice error={action.error} />
      {permission.allowed
        ? (
          <div class="field">
            <label for={inputId}>Add an attestation to {file.fileName} (JSON: a DSSE envelope or a Sigstore bundle)</label>
            <input id={inputId} type="file" accept="application/json,.json,.jsonl,.sigstore,.intoto.jsonl" disabled={action.busy}
              onChange={(event) => void upload(event.currentTarget as HTMLInputElement)} />
          </div>
        )
        : <p class="hint">{permission.reason}</p>}
    </div>
  );
}

function AttestationRow({ attestation }: { attestation: Attestation }) {
  const { verification, provenance } = attestation;
  const kind = verification.status === 'verified' ? 'ok' : verification.status === 'failed' ? 'bad' : 'warn';
  return (
    <tr>
      <td>{FORMAT_NAMES[attestation.format]}<br /><span class="hint">{attestation.predicateType}</span></td>
      <td>
        <span class={`badge ${kind}`}>{verification.status}</span>
        {verification.keyId && <> by key <code>{verification.keyId}</code></>}
        {verification.detail && <><br /><span class="hint">{verification.detail}</span></>}
      </td>
      <td>{provenance.builderId ?? '—'}</td>
      <td>{provenance.sourceCommit ? <code>{provenance.sourceCommit}</code> : '—'}{provenance.sourceRepository && <><br /><span class="hint">{provenance.sourceRepository}</span></>}</td>
      <td>{formatDateTime(attestation.createdAt)}</td>
    </tr>
  );
}
