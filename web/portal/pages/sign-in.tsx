import { useState } from 'preact/hooks';
import { Notice, TextField } from '../../common/components';
import type { Credential } from '../credential';

/** Sign-in with the customer's API key; a portal link signs in by itself. */
export function SignInPage({ message, refusal, onCredential }: { message?: string; refusal?: string; onCredential: (credential: Credential) => void }) {
  const [key, setKey] = useState('');
  const submit = (event: Event) => {
    event.preventDefault();
    onCredential({ kind: 'key', key: key.trim() });
  };
  return (
    <main class="sign-in">
      <h1>Sign in to download</h1>
      <p>Use the API key your vendor gave you, or open the download link they sent you.</p>
      {message && <Notice>{message}</Notice>}
      {refusal && <div class="notice notice-error" role="alert"><strong>Access refused</strong><p>{refusal}</p></div>}
      <form class="card" onSubmit={submit}>
        <TextField label="Your API key" type="password" autoComplete="off" spellcheck={false} required value={key}
          onInput={(event) => setKey((event.target as HTMLInputElement).value)} />
        <button type="submit" class="button" disabled={key.trim() === ''}>Sign in</button>
      </form>
    </main>
  );
}
