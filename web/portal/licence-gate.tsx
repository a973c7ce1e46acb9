import { useState } from 'preact/hooks';
import { ErrorNotice, Loading } from '../common/components';
import { useLoad } from '../common/hooks';
import { customerClient, type Credential } from './credential';


/**
 * The licence an application requires before any download: its text (rendered and sanitized by the
 * service) and an explicit acceptance of this revision, recorded by the service (who, when, revision).
 */
export function LicenceGate({ credential, applicationId, applicationName, onAccepted, onCancel }: {
  credential: Credential;
  applicationId: string;
  applicationName: string;
  onAccepted: () => void;
  onCancel: () => void;
}) {
  const licence = useLoad((signal) => customerClient(credential).getLicence({ applicationId }, { signal }), [applicationId]);
  const [agreed, setAgreed] = useState(false);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const accept = async () => {
    // No revision: no licence is required, so there is nothing to accept.
    if (!licence.data || licence.data.revision === null) return;
    setBusy(true);
    setError(undefined);
    try {
      await customerClient(credential).acceptLicence({ applicationId }, { revision: licence.data.revision });
      onAccepted();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="notice notice-warning licence-gate" aria-labelledby={`licence-${applicationId}`}>
      <h3 id={`licence-${applicationId}`}>Licence agreement for {applicationName}</h3>
      <p>Before downloading, read and accept the licence{licence.data ? ` (revision ${licence.data.revision})` : ''}.</p>
      <ErrorNotice error={licence.error ?? error} />
      {licence.loading && !licence.data && <Loading label="Loading the licence" />}
      {licence.data && (
        <>
          <div class="licence-text markdown" tabIndex={0} aria-label="Licence text" dangerouslySetInnerHTML={{ __html: licence.data.html ?? '' }} />
          <p>
            <label><input type="checkbox" checked={agreed} onChange={(event) => setAgreed((event.target as HTMLInputElement).checked)} /> I have read and accept this licence</label>
          </p>
          <div class="downloads">
            <button type="button" class="button" disabled={!agreed || busy} onClick={() => void accept()}>Accept the licence</button>
            <button type="button" class="button secondary" onClick={onCancel}>Cancel</button>
          </div>
        </>
      )}
    </section>
  );
}
