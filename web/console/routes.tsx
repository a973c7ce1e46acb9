// The console's pages: one line each, in the order the navigation lists them. A page is a component
// given its path parameters; `nav` puts it in the navigation.
import type { FunctionComponent } from 'preact';
import { ApplicationsPage } from './pages/applications';

export const CONSOLE_BASE = '/console';

export interface ConsolePage {
  pattern: string;
  title: string;
  nav?: string;
  component: FunctionComponent<{ params: Record<string, string> }>;
}

export const PAGES: readonly ConsolePage[] = [
  { pattern: `${CONSOLE_BASE}/applications`, title: 'Applications', nav: 'Applications', component: ApplicationsPage },
];

/** Where the console opens after sign-in, and what `/console` alone shows. */
export const HOME = `${CONSOLE_BASE}/applications`;
