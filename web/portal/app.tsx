import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../common/api';
import { ErrorNotice, Loading } from '../common/components';
import { describeError } from '../common/errors';
import { customerClient, forgetCredential, keepCredential, storedCredential, tokenFromLink, type Credential } from './credential';
import { ApplicationsPage } from './pages/applications';
import type { Maintenance } from './portal-application';
import { SignInPage } from './pages/sign-in';

/** The maintenance window the customer's releases are offered within; null when none. */

type Session =
  | { state: 'signed-out'; message?: string; refusal?: unknown }
  | { state: 'checking'; credential: Credential }
  | { state: 'signed-in'; credential: Credential; customerName: string; customerId: string; maintenance: Maintenance }
  | { state: 'failed'; credential: Credential; error: unknown };

/** Asks the service whose the credential is (the customer's name and id, its maintenance window): the portal is for customers. */
export async function checkCredential(credential: Credential): Promise<{ name: string; customerId: string; maintenance: Maintenance }> {
  const caller = await customerClient(credential).getCaller();
  if (caller.kind !== 'customer') throw new ApiError(403, 'FORBIDDEN', 'this is an admin key: vendors use the console at /console');
  return { name: caller.name, customerId: caller.customerId, maintenance: caller.maintenance };
}

function initialSession(): Session {
  const token = tokenFromLink();
  if (token) {
    const credential: Credential = { kind: 'token', token };
    keepCredential(credential);
    return { state: 'checking', credential };
  }
  const stored = storedCredential();
  return stored ? { state: 'checking', credential: stored } : { state: 'signed-out' };
}

export function PortalApp() {
  const [session, setSession] = useState<Session>(initialSession);

  useEffect(() => {
    if (session.state !== 'checking') return;
    const { credential } = session;
    checkCredential(credential).then(
      ({ name, customerId, maintenance }) => setSession({ state: 'signed-in', credential, customerName: name, customerId, maintenance }),
      (error) => {
        if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
          forgetCredential();
          setSession({ state: 'signed-out', refusal: error });
        } else setSession({ state: 'failed', credential, error });
      },
    );
  }, [session]);

  if (session.state === 'checking') return <Loading label="Checking your access" />;
  if (session.state === 'failed') {
    return <main class="portal-main"><ErrorNotice error={session.error} onRetry={() => setSession({ state: 'checking', credential: session.credential })} /></main>;
  }
  if (session.state === 'signed-out') {
    return <SignInPage message={session.message} refusal={session.refusal ? refusalInWords(session.refusal) : undefined}
      onCredential={(credential) => { keepCredential(credential); setSession({ state: 'checking', credential }); }} />;
  }
  const signOut = () => {
    forgetCredential();
    setSession({ state: 'signed-out', message: 'You are signed out. Your key or link is no longer kept in this tab.' });
  };
  return (
    <>
      <a class="skip-link" href="#main">Skip to content</a>
      <header class="portal-header">
        <strong>Downloads</strong>
        <span class="who">{session.credential.kind === 'token' ? 'Opened from a download link' : `Signed in as ${session.customerName}`}</span>
        <button type="button" class="button secondary button-small" onClick={signOut}>Sign out</button>
      </header>
      <main id="main" class="portal-main">
        <ApplicationsPage credential={session.credential} customerId={session.customerId} maintenance={session.maintenance} />
      </main>
    </>
  );
}

/** Why a key or link was refused, for the person holding it. */
function refusalInWords(error: unknown): string {
  if (error instanceof ApiError) {
    if (/inactive/i.test(error.message)) return 'This account is inactive. Contact your vendor to have it reactivated.';
    if (error.code.startsWith('TOKEN_') || /token/i.test(error.message)) return `This download link no longer works (${error.message}). Ask your vendor for a new one.`;
    if (error.status === 401) return 'This key or link is not valid. Check that you copied all of it, or ask your vendor for a new one.';
  }
  const { title, detail } = describeError(error);
  return `${title}. ${detail}`;
}
