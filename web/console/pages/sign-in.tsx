import { useState } from 'preact/hooks';
import { session } from '../../common/api';
import { ErrorNotice, Notice, TextField } from '../../common/components';
import { checkKey } from '../caller';
import type { AdminCaller } from '../caller';

/** Sign-in with an admin key: checked against the service before it is kept in this tab's sessionStorage. */
export function SignInPage({ message, onSignedIn }: { message?: string; onSignedIn: (caller: AdminCaller) => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const caller = await checkKey(key.trim());
      session.signIn(key.trim());
      onSignedIn(caller);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="sign-in">
      <h1>Sign in to the console</h1>
      <p>Use an admin key: a key of <code>ADMIN_API_KEYS</code>, or a scoped key (<code>adm_…</code>) issued to you. It stays in this tab only and is cleared when you sign out or close the tab.</p>
      {message && <Notice>{message}</Notice>}
      <ErrorNotice error={error} />
      <form class="card" onSubmit={submit}>
        <TextField label="Admin key" type="password" autoComplete="off" spellcheck={false} required value={key}
          onInput={(event) => setKey((event.target as HTMLInputElement).value)} />
        <button type="submit" class="button" disabled={busy || key.trim() === ''}>{busy ? 'Checking…' : 'Sign in'}</button>
      </form>
    </main>
  );
}
