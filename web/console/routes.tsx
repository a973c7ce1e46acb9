// The console's pages: one line each, in the order the navigation lists them. A page is a component
// given its path parameters; `nav` puts it in the navigation.
import type { FunctionComponent } from 'preact';
import { ApplicationPage } from './pages/application';
import { ApplicationsPage } from './pages/applications';
import { VersionPage } from './pages/version';

export const CONSOLE_BASE = '/console';

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
];

/** Where the console opens after sign-in, and what `/console` alone shows. */
export const HOME = `${CONSOLE_BASE}/applications`;
