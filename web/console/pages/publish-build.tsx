import { useEffect, useState } from 'preact/hooks';
import { client } from '../../common/api';
import { ErrorNotice, Loading, PageHeader } from '../../common/components';
import { useLoad } from '../../common/hooks';
import { useCaller, usePermission } from '../caller';
import type { BuildPublishPanel } from '../uploads/build-publish';
import { applicationPath } from './applications';
import { versionPath } from './application';


/** The panel and the recogniser it runs (YAML, XML and glob parsers), fetched once, when the page is first opened. */
let panelModule: Promise<typeof BuildPublishPanel> | undefined;
const loadPanel = () => (panelModule ??= import('../uploads/build-publish').then((module) => module.BuildPublishPanel));

/** A whole release from a build folder: the plan `bds publish` makes, then every file and the version in one step. */
export function PublishBuildPage({ params }: { params: Record<string, string> }) {
  const { applicationId } = params;
  const loaded = useLoad(
    (signal) => client.getApplication({ applicationId }, {}, { signal }),
    [applicationId],
  );
  const canPublish = usePermission('publish', applicationId);
  const { channels } = useCaller();
  const [Panel, setPanel] = useState<typeof BuildPublishPanel | null>(null);
  const [loadError, setLoadError] = useState<unknown>(undefined);
  useEffect(() => {
    loadPanel().then((panel) => setPanel(() => panel), setLoadError);
  }, []);
  const title = `Publish a build of ${loaded.data?.name ?? applicationId}`;
  if (loadError) return <><PageHeader title={title} /><ErrorNotice error={loadError} /></>;
  if (!loaded.data || !Panel) return loaded.error ? <><PageHeader title={title} /><ErrorNotice error={loaded.error} onRetry={loaded.reload} /></> : <Loading />;
  const app = loaded.data;
  const published = loaded.data.versions;
  return (
    <>
      <PageHeader title={title} />
      <p><a href={applicationPath(applicationId)}>{app.name}: all versions</a></p>
      {canPublish.allowed
        ? <Panel applicationId={applicationId} keys={{ updateSigningKey: app.updateSigningKey, sparklePublicKey: app.sparklePublicKey }}
          channels={channels} defaultChannel={published[0]?.channel ?? channels[0]} defaultStatus={app.defaultVersionStatus} onPublished={loaded.reload}
          versionHref={(version) => versionPath(applicationId, version)} />
        : <p class="hint">{canPublish.reason}</p>}
    </>
  );
}
