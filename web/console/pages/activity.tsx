import { useState } from 'preact/hooks';
import type { activityPageResponse } from '../../../shared/contract/statistics';
import { client, type Wire } from '../../common/api';
import { ScrollTable } from '../../common/scroll-table';
import { ErrorNotice, PageHeader, SelectField, TextField } from '../../common/components';
import { LoadMore, useFeed } from '../../common/feed';
import { formatDateTime } from '../../common/format';
import { useDebounced } from '../../common/hooks';
import { useLocation } from '../../common/router';

type ActivityPage = Wire<typeof activityPageResponse>;
type Activity = ActivityPage['activities'][number];

/** Uploads and downloads, newest first, filtered by type and application, loaded as the reader scrolls. */
export function ActivityPage() {
  const { query } = useLocation();
  const [type, setType] = useState<'' | 'upload' | 'download'>('');
  const [applicationId, setApplicationId] = useState(query.get('applicationId') ?? '');
  const settledApplication = useDebounced(applicationId.trim());
  const feed = useFeed<Activity>(async (cursor, signal) => {
    const page = await client.listActivity({ type: type || null, applicationId: settledApplication, cursor, limit: 50 }, { signal });
    return { items: page.activities, nextCursor: page.pagination.nextCursor, hasMore: page.pagination.hasMore };
  }, [type, settledApplication]);
  return (
    <>
      <PageHeader title="Activity" />
      <div class="toolbar" role="search">
        <SelectField label="Type" value={type} onChange={(e) => setType((e.target as HTMLSelectElement).value as typeof type)}
          options={[{ value: '', label: 'Uploads and downloads' }, { value: 'download', label: 'Downloads' }, { value: 'upload', label: 'Uploads' }]} />
        <TextField label="Application id" value={applicationId} onInput={(e) => setApplicationId((e.target as HTMLInputElement).value)} />
      </div>
      <ErrorNotice error={feed.error} onRetry={feed.reload} />
      {feed.items.length > 0 && (
        <ScrollTable label="Activity">
          <table>
            <caption class="visually-hidden">Activity, newest first</caption>
            <thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">Release</th><th scope="col" class="hide-narrow">Platform</th><th scope="col">Who</th></tr></thead>
            <tbody>
              {feed.items.map((event) => (
                <tr key={event.eventId} data-event={event.type}>
                  <td>{formatDateTime(event.timestamp)}</td>
                  <td><span class={`badge ${event.type === 'download' ? 'ok' : ''}`}>{event.type}</span></td>
                  <td>{event.applicationId} {event.version}<p class="hint show-narrow">{event.platform} {event.arch}</p></td>
                  <td class="hide-narrow">{event.platform} {event.arch}</td>
                  <td>{event.customerId ? <code>{event.customerId}</code> : <span class="hint">—</span>}{event.clientIp && <span class="hint"> from {event.clientIp}</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollTable>
      )}
      <LoadMore feed={feed} noun="events" />
    </>
  );
}
