// The console's pages: one line each, in the order the navigation lists them. A page is a component
// given its path parameters; `nav` puts it in the navigation.
import type { FunctionComponent } from 'preact';
import { ActivityPage } from './pages/activity';
import { AdminKeysPage } from './pages/admin-keys';
import { ApplicationsPage } from './pages/applications';
import { AuditPage } from './pages/audit';
import { CustomerPage } from './pages/customer';
import { CustomersPage } from './pages/customers';
import { StatisticsPage } from './pages/statistics';
import { WebhookPage } from './pages/webhook';
import { WebhooksPage } from './pages/webhooks';
import { ApplicationPage } from './pages/application';
import { VersionPage } from './pages/version';
import { PublishBuildPage } from './pages/publish-build';
import { RepositoriesPage } from './pages/repositories';

import { CONSOLE_BASE } from './paths';

export interface ConsolePage {
  pattern: string;
  title: string;
  nav?: string;
  component: FunctionComponent<{ params: Record<string, string> }>;
}

export const PAGES: readonly ConsolePage[] = [
  { pattern: `${CONSOLE_BASE}/applications`, title: 'Applications', nav: 'Applications', component: ApplicationsPage },
  { pattern: `${CONSOLE_BASE}/applications/:applicationId`, title: 'Application', component: ApplicationPage },
  { pattern: `${CONSOLE_BASE}/applications/:applicationId/versions/:version`, title: 'Version', component: VersionPage },
  { pattern: `${CONSOLE_BASE}/applications/:applicationId/publish`, title: 'Publish a build', component: PublishBuildPage },
  { pattern: `${CONSOLE_BASE}/applications/:applicationId/repositories`, title: 'Package repositories', component: RepositoriesPage },
  { pattern: `${CONSOLE_BASE}/customers`, title: 'Customers', nav: 'Customers', component: CustomersPage },
  { pattern: `${CONSOLE_BASE}/customers/:customerId`, title: 'Customer', component: CustomerPage },
  { pattern: `${CONSOLE_BASE}/statistics`, title: 'Statistics', nav: 'Statistics', component: StatisticsPage },
  { pattern: `${CONSOLE_BASE}/activity`, title: 'Activity', nav: 'Activity', component: ActivityPage },
  { pattern: `${CONSOLE_BASE}/audit`, title: 'Audit log', nav: 'Audit log', component: AuditPage },
  { pattern: `${CONSOLE_BASE}/webhooks`, title: 'Webhooks', nav: 'Webhooks', component: WebhooksPage },
  { pattern: `${CONSOLE_BASE}/webhooks/:webhookId`, title: 'Webhook endpoint', component: WebhookPage },
  { pattern: `${CONSOLE_BASE}/admin-keys`, title: 'Admin keys', nav: 'Admin keys', component: AdminKeysPage },
];
