import { useState } from 'preact/hooks';
import type { provisionedCustomerResponse } from '../../../shared/contract/customers';
import { ShownOnce, useAction } from '../../common/actions';
import { client, newIdempotencyKey, type Wire } from '../../common/api';
import { ErrorNotice, GuardedButton, Loading, PageHeader, SelectField, TextArea, TextField } from '../../common/components';
import { formatDate } from '../../common/format';
import { useDebounced, useLoad } from '../../common/hooks';
import { useCaller, usePermission } from '../caller';
import { CONSOLE_BASE } from '../paths';
import { Pager } from './applications';

type ProvisionedCustomer = Wire<typeof provisionedCustomerResponse>;

const PAGE_SIZE = 25;

export const customerPath = (customerId: string) => `${CONSOLE_BASE}/customers/${encodeURIComponent(customerId)}`;

/** The customers, found by the start of their id or name, a page at a time; and a new one with its first key. */
export function CustomersPage() {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ProvisionedCustomer | null>(null);
  const settled = useDebounced(search.trim());
  const manage = usePermission('manage');
  const list = useLoad(
    (signal) => client.listCustomers({ page, pageSize: PAGE_SIZE, search: settled }, { signal }),
    [page, settled],
  );
  return (
    <>
      <PageHeader title="Customers">
        <GuardedButton allowed={manage.allowed} reason={manage.reason} onClick={() => setCreating(true)} aria-expanded={creating}>New customer</GuardedButton>
      </PageHeader>
      {created && (
        <ShownOnce title={`Customer ${created.name} created. Its first API key:`} value={created.apiKey} onDone={() => setCreated(null)} />
      )}
      {creating && <CreateCustomerForm onCancel={() => setCreating(false)} onCreated={(customer) => { setCreating(false); setCreated(customer); list.reload(); }} />}
      <div class="toolbar" role="search">
        <TextField label="Search customers" hint="The start of a customer's id or name" type="search" value={search}
          onInput={(event) => { setSearch((event.target as HTMLInputElement).value); setPage(1); }} />
      </div>
      <ErrorNotice error={list.error} onRetry={list.reload} />
      {list.loading && !list.data && <Loading />}
      {list.data && (
        <>
          <div class="table-wrap">
            <table>
              <caption class="visually-hidden">Customers</caption>
              <thead><tr><th scope="col">Name</th><th scope="col" class="hide-narrow">Id</th><th scope="col">Tier</th><th scope="col">Status</th><th scope="col">Since</th></tr></thead>
              <tbody>
                {list.data.customers.map((customer) => (
                  <tr key={customer.customerId}>
                    <td><a href={customerPath(customer.customerId)}>{customer.name}</a><p class="hint show-narrow">{customer.customerId}</p></td>
                    <td class="hide-narrow"><code>{customer.customerId}</code></td>
                    <td>{customer.tier}</td>
                    <td>{customer.isActive ? <span class="badge ok">active</span> : <span class="badge bad">inactive</span>}</td>
                    <td>{formatDate(customer.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {list.data.customers.length === 0 && <p>No customer matches.</p>}
          <Pager page={page} totalPages={list.data.pagination.totalPages} onPage={setPage} />
        </>
      )}
    </>
  );
}

function CreateCustomerForm({ onCreated, onCancel }: { onCreated: (customer: ProvisionedCustomer) => void; onCancel: () => void }) {
  const [name, setName] = useState('');
  const [customerId, setCustomerId] = useState('');
  const { tiers } = useCaller();
  const [tier, setTier] = useState(tiers.includes('standard') ? 'standard' : tiers[0]);
  const [notes, setNotes] = useState('');
  const [idempotencyKey] = useState(newIdempotencyKey);
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const customer = await action.run(() => client.createCustomer(
      { name: name.trim(), tier, ...(customerId.trim() ? { customerId: customerId.trim() } : {}), ...(notes.trim() ? { notes } : {}) },
      { idempotencyKey },
    ));
    if (customer) onCreated(customer);
  };
  return (
    <form class="card" onSubmit={submit} aria-label="New customer">
      <h2>New customer</h2>
      <ErrorNotice error={action.error} />
      <div class="grid-2">
        <TextField label="Name" required value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        <TextField label="Customer id (optional)" hint="Left empty, the service makes one" value={customerId} onInput={(e) => setCustomerId((e.target as HTMLInputElement).value)} />
        <SelectField label="Tier" value={tier} onChange={(e) => setTier((e.target as HTMLSelectElement).value)}
          options={tiers.map((t) => ({ value: t, label: t }))} />
      </div>
      <TextArea label="Notes (optional)" value={notes} onInput={(e) => setNotes((e.target as HTMLTextAreaElement).value)} />
      <div class="page-actions">
        <button type="submit" class="button" disabled={action.busy || !name.trim()}>{action.busy ? 'Creating…' : 'Create customer'}</button>
        <button type="button" class="button secondary" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}
