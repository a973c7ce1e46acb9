import { useEffect, useState } from 'preact/hooks';
import { ApiError, session } from '../common/api';
import { ErrorNotice, Loading } from '../common/components';
import { matchPath, navigate, onLinkClick, useLocation } from '../common/router';
import { CallerContext, checkKey, type AdminCaller } from './caller';
import { SignInPage } from './pages/sign-in';
import { CONSOLE_BASE, HOME } from './paths';
import { PAGES } from './routes';

type Auth =
  | { state: 'signed-out'; message?: string }
  | { state: 'checking' }
  | { state: 'signed-in'; caller: AdminCaller }
  | { state: 'failed'; error: unknown };


export function ConsoleApp() {
  const [auth, setAuth] = useState<Auth>(() => (session.key() ? { state: 'checking' } : { state: 'signed-out' }));
  const { path } = useLocation();

  useEffect(() => {
    if (auth.state !== 'checking') return;
    checkKey().then(
      (caller) => setAuth({ state: 'signed-in', caller }),
      (error) => {
        if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
          session.signOut();
          setAuth({ state: 'signed-out', message: error.message });
        } else setAuth({ state: 'failed', error });
      },
    );
  }, [auth.state]);

  // A page change moves focus to the new page's heading, as a full page load would for a screen reader.
  useEffect(() => {
    document.querySelector<HTMLElement>('main h1')?.focus();
  }, [path]);

  if (auth.state === 'checking') return <Loading label="Checking your key" />;
  if (auth.state === 'failed') return <main><ErrorNotice error={auth.error} onRetry={() => setAuth({ state: 'checking' })} /></main>;
  if (auth.state === 'signed-out') {
    return <SignInPage message={auth.message} onSignedIn={(caller) => {
      setAuth({ state: 'signed-in', caller });
      if (path === CONSOLE_BASE || path === `${CONSOLE_BASE}/`) navigate(HOME, { replace: true });
    }} />;
  }

  const signOut = () => {
    session.signOut();
    setAuth({ state: 'signed-out', message: 'You are signed out. The key is no longer kept in this tab.' });
  };
  const matched = PAGES.map((page) => ({ page, params: matchPath(page.pattern, path) })).find((m) => m.params !== null);
  if (!matched && (path === CONSOLE_BASE || path === `${CONSOLE_BASE}/`)) navigate(HOME, { replace: true });
  document.title = `${matched?.page.title ?? 'Not found'} · Console`;
  const { caller } = auth;
  return (
    <CallerContext.Provider value={caller}>
      <a class="skip-link" href="#main">Skip to content</a>
      <div class="shell" onClick={onLinkClick}>
        <nav aria-label="Console">
          <a class="brand" href={HOME}>Distribution console</a>
          {PAGES.filter((page) => page.nav).map((page) => (
            <a key={page.pattern} href={page.pattern} aria-current={path.startsWith(page.pattern) ? 'page' : undefined}>{page.nav}</a>
          ))}
          <p class="who">
            Signed in with {caller.actor === 'root' ? 'a root key' : `key ${caller.actor}`}: {caller.scopes.join(', ')}
            {caller.applicationIds ? `, for ${caller.applicationIds.length} application${caller.applicationIds.length === 1 ? '' : 's'}` : ''}
          </p>
          <button type="button" class="button secondary button-small" onClick={signOut}>Sign out</button>
        </nav>
        <main id="main">
          {matched
            ? <matched.page.component params={matched.params as Record<string, string>} />
            : <><h1 tabIndex={-1}>Page not found</h1><p>There is no console page at this address. <a href={HOME}>Go to the applications</a>.</p></>}
        </main>
      </div>
    </CallerContext.Provider>
  );
}
