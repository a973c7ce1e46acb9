// Checked by tsc with the rest of the tests: each `@ts-expect-error` line must fail to compile, so a
// client that accepted a wrong body or answered with a loose type would break the build.
import { createClient } from '../../shared/contract/client';

const client = createClient({ baseUrl: '', transport: async () => ({ status: 200, header: () => null, text: '{}' }) });

export async function typedEndToEnd(): Promise<void> {
  const customer = await client.updateCustomer({ customerId: 'acme' }, { name: 'Acme' });
  const name: string = customer.name;
  const active: boolean = customer.isActive;
  // @ts-expect-error: the answer has no such field
  void customer.secret;
  // @ts-expect-error: isActive is a boolean, not a string
  await client.updateCustomer({ customerId: 'acme' }, { isActive: 'yes' });
  // @ts-expect-error: an unknown field in the body
  await client.updateCustomer({ customerId: 'acme' }, { nickname: 'A' });
  // @ts-expect-error: the path parameter is missing
  await client.updateCustomer({}, { name: 'Acme' });
  // @ts-expect-error: the body is missing
  await client.updateCustomer({ customerId: 'acme' });
  // @ts-expect-error: the answer is a customer, not a number
  const wrong: number = await client.getCustomer({ customerId: 'acme' });

  const page = await client.listCustomers({ page: 2, search: 'ac' });
  const total: number = page.pagination.total;
  // @ts-expect-error: listCustomers takes no such query parameter
  await client.listCustomers({ colour: 'red' });
  // @ts-expect-error: page is a number
  await client.listCustomers({ page: {} });

  // @ts-expect-error: an image is reached by its URL, not called
  await client.getApplicationLogo({ applicationId: 'app' });
  const logo: string = client.path('getApplicationLogo', { applicationId: 'app' });
  // @ts-expect-error: no such operation
  await client.updateCustomers({ customerId: 'acme' }, {});
  void [name, active, wrong, total, logo];
}
