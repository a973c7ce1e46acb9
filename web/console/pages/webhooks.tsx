import { useState } from 'preact/hooks';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../../shared/webhooks/event-types';
import type { createdWebhookResponse } from '../../../shared/contract/webhooks';
import { ShownOnce, useAction } from '../../common/actions';
import { client, newIdempotencyKey, type Wire } from '../../common/api';
import { ErrorNotice, GuardedButton, Loading, PageHeader, TextField } from '../../common/components';
import { formatDateTime } from '../../common/format';
import { useLoad } from '../../common/hooks';
import { usePermission } from '../caller';
import { CONSOLE_BASE } from '../paths';
import { Pager } from './applications';

type CreatedWebhook = Wire<typeof createdWebhookResponse>;

export const webhookPath = (webhookId: string) => `${CONSOLE_BASE}/webhooks/${encodeURIComponent(webhookId)}`;

/** Where the service posts its events, and a new endpoint with its signing secret (shown once). */
export function WebhooksPage() {
  const admin = usePermission('admin');
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const list = useLoad((signal) => client.listWebhooks({ page, pageSize: 25 }, { signal }), [page]);
  return (
    <>
      <PageHeader title="Webhooks">
        <GuardedButton allowed={admin.allowed} reason={admin.reason} onClick={() => setCreating(true)} aria-expanded={creating}>New endpoint</GuardedButton>
      </PageHeader>
      {created && <ShownOnce title={`Endpoint created. Its signing secret (check the signature of every delivery with it):`} value={created.secret} onDone={() => setCreated(null)} />}
      {creating && <CreateWebhookForm onCancel={() => setCreating(false)} onCreated={(webhook) => { setCreating(false); setCreated(webhook); list.reload(); }} />}
      <ErrorNotice error={list.error} onRetry={list.reload} />
      {list.loading && !list.data && <Loading />}
      {list.data && (
        <>
          <div class="table-wrap">
            <table>
              <caption class="visually-hidden">Webhook endpoints</caption>
              <thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Status</th><th scope="col">Created</th></tr></thead>
              <tbody>
                {list.data.webhooks.map((webhook) => (
                  <tr key={webhook.webhookId}>
                    <td><a href={webhookPath(webhook.webhookId)}>{webhook.url}</a>{webhook.description && <p class="hint">{webhook.description}</p>}</td>
                    <td>{webhook.events.join(', ')}</td>
                    <td>{webhook.isActive ? (webhook.failingSince ? <span class="badge warn">failing</span> : <span class="badge ok">active</span>) : <span class="badge bad">disabled</span>}</td>
                    <td>{formatDateTime(webhook.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {list.data.webhooks.length === 0 && <p>No endpoint yet.</p>}
          <Pager page={page} totalPages={list.data.pagination.totalPages} onPage={setPage} />
        </>
      )}
    </>
  );
}

/** The event types as checkboxes in a fieldset (the webhook forms' shared field). */
export function EventChoice({ chosen, onChange }: { chosen: WebhookEventType[]; onChange: (events: WebhookEventType[]) => void }) {
  return (
    <fieldset class="checks">
      <legend>Events</legend>
      {WEBHOOK_EVENT_TYPES.map((type) => (
        <label key={type}>
          <input type="checkbox" checked={chosen.includes(type)}
            onChange={(e) => onChange((e.target as HTMLInputElement).checked ? [...chosen, type] : chosen.filter((t) => t !== type))} />
          {type}
        </label>
      ))}
    </fieldset>
  );
}

function CreateWebhookForm({ onCreated, onCancel }: { onCreated: (webhook: CreatedWebhook) => void; onCancel: () => void }) {
  const [url, setUrl] = useState('https://');
  const [events, setEvents] = useState<WebhookEventType[]>(['version.published']);
  const [description, setDescription] = useState('');
  const [idempotencyKey] = useState(newIdempotencyKey);
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const webhook = await action.run(() => client.createWebhook(
      { url: url.trim(), events, ...(description.trim() ? { description: description.trim() } : {}) },
      { idempotencyKey },
    ));
    if (webhook) onCreated(webhook);
  };
  return (
    <form class="card" onSubmit={submit} aria-label="New webhook endpoint">
      <h2>New endpoint</h2>
      <ErrorNotice error={action.error} />
      <TextField label="URL" type="url" hint="https, reachable from the service" required value={url} onInput={(e) => setUrl((e.target as HTMLInputElement).value)} />
      <EventChoice chosen={events} onChange={setEvents} />
      <TextField label="Description (optional)" value={description} onInput={(e) => setDescription((e.target as HTMLInputElement).value)} />
      <div class="page-actions">
        <button type="submit" class="button" disabled={action.busy || events.length === 0}>{action.busy ? 'Creating…' : 'Create endpoint'}</button>
        <button type="button" class="button secondary" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}
