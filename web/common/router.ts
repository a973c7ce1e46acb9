// A small history router: the apps have a handful of pages, so a path pattern table is all they need.
import { useEffect, useState } from 'preact/hooks';

type Listener = () => void;
const listeners = new Set<Listener>();

function notify(): void {
  for (const listener of listeners) listener();
}

window.addEventListener('popstate', notify);

/** Goes to `path` (absolute, e.g. /console/applications/app_1) without reloading the page. */
export function navigate(path: string, options: { replace?: boolean } = {}): void {
  if (options.replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  notify();
  window.scrollTo(0, 0);
}

/** The current location (path and query), re-rendering the caller when it changes. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const listener = () => setTick((tick) => tick + 1);
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
  return { path: location.pathname, query: new URLSearchParams(location.search) };
}

/** Matches `path` against `pattern` (`/console/applications/:applicationId`); the decoded parameters, or null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const names: string[] = [];
  const source = pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const match = new RegExp(`^${source}/?$`).exec(path);
  if (!match) return null;
  return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1])]));
}

/** Link clicks handled by the router (a plain <a href> keeps working with a modifier key or without script). */
export function onLinkClick(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const anchor = (event.target as Element).closest('a');
  if (!anchor || anchor.target || anchor.origin !== location.origin || anchor.hasAttribute('download')) return;
  event.preventDefault();
  navigate(anchor.pathname + anchor.search);
}
