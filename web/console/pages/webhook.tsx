import { useEffect, useState } from 'preact/hooks';
import type { rotatedSecretResponse } from '../../../shared/contract/webhooks';
import { ConfirmButton, ShownOnce, useAction } from '../../common/actions';
import { client, type Wire } from '../../common/api';
import { ErrorNotice, GuardedButton, Loading, Notice, PageHeader } from '../../common/components';
import { formatDateTime } from '../../common/format';
import { useLoad } from '../../common/hooks';
import { navigate } from '../../common/router';
import { usePermission } from '../caller';
import { CONSOLE_BASE } from '../paths';
import { Pager } from './applications';

type RotatedSecret = Wire<typeof rotatedSecretResponse>;


/** One endpoint: enable or disable it, rotate its secret, delete it; its deliveries, each sent again on demand. */
export function WebhookPage({ params }: { params: Record<string, string> }) {
  const { webhookId } = params;
  const admin = usePermission('admin');
  const webhook = useLoad((signal) => client.getWebhook({ webhookId }, { signal }), [webhookId]);
  const [rotated, setRotated] = useState<RotatedSecret | null>(null);
  const [done, setDone] = useState('');
  const action = useAction();
  const act = async (work: () => Promise<unknown>, message: string) => {
    setDone('');
    if (await action.run(work) !== undefined) { setDone(message); webhook.reload(); }
  };
  const data = webhook.data;
  return (
    <>
      <PageHeader title="Webhook endpoint"><a href={`${CONSOLE_BASE}/webhooks`}>All endpoints</a></PageHeader>
      <ErrorNotice error={webhook.error} onRetry={webhook.reload} />
      {webhook.loading && !data && <Loading />}
      {data && (
        <section class="card" aria-labelledby="webhook-details">
          <h2 id="webhook-details">{data.url}</h2>
          <dl class="facts">
            <dt>Id</dt><dd><code>{data.webhookId}</code></dd>
            <dt>Events</dt><dd>{data.events.join(', ')}</dd>
            <dt>Status</dt><dd>{data.isActive ? 'active' : `disabled${data.disabledReason ? `: ${data.disabledReason}` : ''}`}</dd>
            {data.failingSince && <><dt>Failing since</dt><dd>{formatDateTime(data.failingSince)}</dd></>}
            {data.previousSecretExpiresAt && <><dt>Previous secret signs until</dt><dd>{formatDateTime(data.previousSecretExpiresAt)}</dd></>}
            {data.description && <><dt>Description</dt><dd>{data.description}</dd></>}
          </dl>
          {rotated && <ShownOnce title="The new signing secret:" value={rotated.secret} onDone={() => setRotated(null)} />}
          {done && <Notice kind="success">{done}</Notice>}
          <ErrorNotice error={action.error} />
          <div class="page-actions">
            <GuardedButton allowed={admin.allowed} reason={admin.reason} class="button secondary" disabled={action.busy}
              onClick={() => void act(() => client.updateWebhook({ webhookId }, { isActive: !data.isActive }), data.isActive ? 'Endpoint disabled.' : 'Endpoint enabled.')}>
              {data.isActive ? 'Disable' : 'Enable'}
            </GuardedButton>
            <GuardedButton allowed={admin.allowed} reason={admin.reason} class="button secondary" disabled={action.busy}
              onClick={() => void act(async () => { const secret = await client.rotateWebhookSecret({ webhookId }, {}); setRotated(secret); return secret; }, 'Secret rotated: the previous one signs too for a day.')}>
              Rotate secret
            </GuardedButton>
            {admin.allowed
              ? <ConfirmButton label="Delete" confirmLabel="Yes, delete" question="Delete this endpoint and its delivery log?" busy={action.busy}
                  onConfirm={() => void action.run(() => client.deleteWebhook({ webhookId })).then((r) => { if (r !== undefined) navigate(`${CONSOLE_BASE}/webhooks`); })} />
              : <GuardedButton allowed={false} reason={admin.reason}>Delete</GuardedButton>}
          </div>
        </section>
      )}
      {data && <Deliveries webhookId={webhookId} />}
    </>
  );
}

function Deliveries({ webhookId }: { webhookId: string }) {
  const admin = usePermission('admin');
  const [page, setPage] = useState(1);
  const deliveries = useLoad((signal) => client.listWebhookDeliveries({ webhookId }, { page, pageSize: 20 }, { signal }), [webhookId, page]);
  const [sent, setSent] = useState('');
  const action = useAction();
  // A delivery on its way is followed until it settles, so a redelivery's outcome shows without a reload.
  const pending = deliveries.data?.deliveries.some((delivery) => delivery.status === 'pending') ?? false;
  useEffect(() => {
    if (!pending || deliveries.loading) return;
    const timer = setTimeout(deliveries.reload, 2000);
    return () => clearTimeout(timer);
  }, [pending, deliveries.loading, deliveries.data]);
  const redeliver = async (deliveryId: string) => {
    setSent('');
    if (await action.run(() => client.redeliverWebhookDelivery({ webhookId, deliveryId }, {})) !== undefined) {
      setSent(`Delivery ${deliveryId} queued to be sent again.`);
      deliveries.reload();
    }
  };
  return (
    <section class="card" aria-labelledby="webhook-deliveries">
      <div class="page-header">
        <h2 id="webhook-deliveries">Deliveries</h2>
        <button type="button" class="button secondary button-small" onClick={deliveries.reload} disabled={deliveries.loading}>{deliveries.loading ? 'Refreshing…' : 'Refresh'}</button>
      </div>
      {sent && <Notice kind="success">{sent}</Notice>}
      <ErrorNotice error={deliveries.error ?? action.error} onRetry={deliveries.error ? deliveries.reload : undefined} />
      {deliveries.data && deliveries.data.deliveries.length === 0 && <p>Nothing delivered yet.</p>}
      {deliveries.data && deliveries.data.deliveries.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Deliveries, newest first</caption>
            <thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Response</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {deliveries.data.deliveries.map((delivery) => (
                <tr key={delivery.deliveryId} data-delivery={delivery.deliveryId}>
                  <td>{delivery.eventType}<p class="hint">{formatDateTime(delivery.createdAt)}</p></td>
                  <td><span class={`badge ${delivery.status === 'delivered' ? 'ok' : delivery.status === 'failed' ? 'bad' : 'warn'}`}>{delivery.status}</span>
                    <p class="hint">{delivery.attempts} attempt{delivery.attempts === 1 ? '' : 's'}{delivery.lastAttemptAt ? `, last ${formatDateTime(delivery.lastAttemptAt)}` : ''}</p></td>
                  <td>
                    {delivery.responseStatus !== null ? <span>HTTP {delivery.responseStatus}</span> : <span class="hint">no response</span>}
                    {delivery.error && <p class="field-error">{delivery.error}</p>}
                    {delivery.responseBody && <details><summary>Response body</summary><pre class="response">{delivery.responseBody}</pre></details>}
                  </td>
                  <td>{delivery.status === 'pending' ? null
                    : <GuardedButton allowed={admin.allowed} reason={admin.reason} class="button secondary button-small" disabled={action.busy}
                        onClick={() => void redeliver(delivery.deliveryId)}>Redeliver</GuardedButton>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {deliveries.data && <Pager page={page} totalPages={deliveries.data.pagination.totalPages} onPage={setPage} />}
    </section>
  );
}
