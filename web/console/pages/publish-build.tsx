import type { applicationWithVersionsResponse } from '../../../shared/contract/applications';
import { api, type Wire } from '../../common/api';
import { ErrorNotice, Loading, PageHeader } from '../../common/components';
import { useLoad } from '../../common/hooks';
import { useCaller, usePermission } from '../caller';
import { BuildPublishPanel } from '../uploads/build-publish';
import { applicationPath } from './applications';
import { versionPath } from './application';

type ApplicationWithVersions = Wire<typeof applicationWithVersionsResponse>;

/** A whole release from a build folder: the plan `bds publish` makes, then every file and the version in one step. */
export function PublishBuildPage({ params }: { params: Record<string, string> }) {
  const { applicationId } = params;
  const loaded = useLoad(
    (signal) => api<ApplicationWithVersions>(`/v1/management/applications/${encodeURIComponent(applicationId)}`, { signal }),
    [applicationId],
  );
  const canPublish = usePermission('publish', applicationId);
  const { channels } = useCaller();
  const title = `Publish a build of ${loaded.data?.name ?? applicationId}`;
  if (!loaded.data) return loaded.error ? <><PageHeader title={title} /><ErrorNotice error={loaded.error} onRetry={loaded.reload} /></> : <Loading />;
  const app = loaded.data;
  const published = loaded.data.versions;
  return (
    <>
      <PageHeader title={title} />
      <p><a href={applicationPath(applicationId)}>{app.name}: all versions</a></p>
      {canPublish.allowed
        ? <BuildPublishPanel applicationId={applicationId} keys={{ updateSigningKey: app.updateSigningKey, sparklePublicKey: app.sparklePublicKey }}
          channels={channels} defaultChannel={published[0]?.channel ?? channels[0]} defaultStatus={app.defaultVersionStatus} onPublished={loaded.reload}
          versionHref={(version) => versionPath(applicationId, version)} />
        : <p class="hint">{canPublish.reason}</p>}
    </>
  );
}
