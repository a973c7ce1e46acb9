import { useEffect, useState } from 'preact/hooks';
import type { VisitorPlatform } from '../../../shared/releases/visitor-platform';
import { ApiError } from '../../common/api';
import { ErrorNotice, Loading } from '../../common/components';
import { useLoad } from '../../common/hooks';
import { AuthorizedImage } from '../../common/authorized-image';
import { bearerOf, customerClient, type Credential } from '../credential';
import { LicenceGate } from '../licence-gate';
import { ReleaseView, type Release } from '../release-view';
import { RepositorySetupPanel } from '../repository-setup';
import { detectVisitor } from '../visitor';
import type { Maintenance, PortalApplication } from '../portal-application';
import { formatDate } from '../../common/format';


/** Every application the customer may download, each with the newest release of each channel it sees. */
export function ApplicationsPage({ credential, customerId, maintenance }: { credential: Credential; customerId: string; maintenance: Maintenance }) {
  const [visitor, setVisitor] = useState<VisitorPlatform | null>(null);
  useEffect(() => { void detectVisitor().then(setVisitor); }, []);
  const applications = useLoad((signal) => customerClient(credential).listCustomerApplications({ pageSize: 100 }, { signal }), [credential]);
  document.title = 'Downloads';
  return (
    <>
      <h1 tabIndex={-1}>Your downloads</h1>
      <ErrorNotice error={applications.error} onRetry={applications.reload} />
      {applications.loading && !applications.data && <Loading />}
      {applications.data && applications.data.applications.length === 0 && <p>No application is available to you yet. Your vendor can grant you access.</p>}
      {visitor && applications.data?.applications.map((application) => (
        <ApplicationCard key={application.applicationId} application={application} credential={credential} customerId={customerId} visitor={visitor} maintenance={maintenance} />
      ))}
    </>
  );
}

function ApplicationCard({ application, credential, customerId, visitor, maintenance }: {
  application: PortalApplication; credential: Credential; customerId: string; visitor: VisitorPlatform; maintenance: Maintenance;
}) {
  // The licence is shown before any download when this customer has not accepted its revision yet.
  const [gate, setGate] = useState<{ retry: () => void } | null>(
    application.licence.required && !application.licence.accepted ? { retry: () => undefined } : null);
  const releases = useLoad(
    (signal) => customerClient(credential).listReleases({ applicationId: application.applicationId, pageSize: 100 }, { signal }),
    [application.applicationId, credential],
  );
  const { name } = application;
  const style = application.accentColour ? { '--accent': application.accentColour } : undefined;
  const newestByChannel = newestPerChannel(releases.data?.releases ?? []);
  const newest = new Set(newestByChannel);
  const older = (releases.data?.releases ?? []).filter((release) => !newest.has(release));
  const onRefused = (error: unknown, retry: () => void) => {
    if (error instanceof ApiError && error.code === 'LICENCE_ACCEPTANCE_REQUIRED') {
      setGate({ retry });
      return true;
    }
    return false;
  };
  return (
    <section class="card app-card" style={style} aria-labelledby={`app-${application.applicationId}`}>
      <header>
        {application.logoUrl && (
          <AuthorizedImage path={customerClient(credential).path('getApplicationLogo', { applicationId: application.applicationId })} bearer={bearerOf(credential)} alt={name} />
        )}
        <h2 id={`app-${application.applicationId}`}>{name}</h2>
      </header>
      {application.description && <p>{application.description}</p>}
      {application.supportUrl && <p><a href={application.supportUrl} rel="noopener noreferrer">Get help with {name}</a></p>}
      {gate && (
        <LicenceGate credential={credential} applicationId={application.applicationId} applicationName={name}
          onAccepted={() => { const { retry } = gate; setGate(null); retry(); }} onCancel={() => setGate(null)} />
      )}
      <ErrorNotice error={releases.error} onRetry={releases.reload} />
      {releases.loading && !releases.data && <Loading label="Loading releases" />}
      {releases.data && releases.data.releases.length === 0 && <p>No release is available to you yet.</p>}
      {maintenance && releases.data && releases.data.releases.length > 0 && (
        <p class="notice notice-info" role="note">{entitlementInWords(maintenance, releases.data.releases[0].version)}</p>
      )}
      {newestByChannel.map((release) => (
        <ReleaseView key={release.version} release={release} application={application} credential={credential} visitor={visitor} primary onRefused={onRefused} />
      ))}
      {releases.data && <RepositorySetupPanel applicationId={application.applicationId} applicationName={name} credential={credential}
        customerId={customerId} releases={releases.data.releases} />}
      {older.length > 0 && (
        <details>
          <summary>Older releases ({older.length})</summary>
          {older.map((release) => (
            <ReleaseView key={release.version} release={release} application={application} credential={credential} visitor={visitor} primary={false} onRefused={onRefused} />
          ))}
        </details>
      )}
    </section>
  );
}

/**
 * What the customer's maintenance window means for this application: when it ended (or ends), and the
 * newest release it is entitled to, which is the listing's first (the service lists nothing newer).
 */
function entitlementInWords(maintenance: NonNullable<Maintenance>, newest: string): string {
  const ranges = maintenance.versionRanges.join(' and ');
  if (maintenance.updatesUntil) {
    const day = formatDate(maintenance.updatesUntil);
    const covered = ranges ? ` (versions ${ranges})` : '';
    return Date.parse(maintenance.updatesUntil) <= Date.now()
      ? `Your maintenance ended on ${day}; version ${newest} is the last you are entitled to${covered}.`
      : `Your maintenance runs until ${day}${covered}; version ${newest} is the newest you are entitled to so far.`;
  }
  return `Your licence covers versions ${ranges}; version ${newest} is the newest you are entitled to.`;
}

/** The newest release of each channel, in the order the listing gives them (newest first). */
function newestPerChannel(releases: readonly Release[]): Release[] {
  const seen = new Set<string>();
  return releases.filter((release) => {
    if (seen.has(release.channel)) return false;
    seen.add(release.channel);
    return true;
  });
}
