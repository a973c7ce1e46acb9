import { useState } from 'preact/hooks';
import { client } from '../../common/api';
import { Notice, TextField } from '../../common/components';
import { useLoad } from '../../common/hooks';
import type { Credential } from '../credential';


/** Sign-in with the customer's API key; a portal link signs in by itself. The vendor's name and logo head it. */
export function SignInPage({ message, refusal, onCredential }: { message?: string; refusal?: string; onCredential: (credential: Credential) => void }) {
  const [key, setKey] = useState('');
  // Asked without a key: who distributes here. Without an answer the page is the same, unbranded.
  const vendor = useLoad((signal) => client.getVendor({ signal }), []);
  const name = vendor.data?.name ?? null;
  const submit = (event: Event) => {
    event.preventDefault();
    onCredential({ kind: 'key', key: key.trim() });
  };
  return (
    <main class="sign-in">
      {vendor.data && (name || vendor.data.logoUrl) && (
        <p class="vendor-masthead">
          {vendor.data.logoUrl && <img src={vendor.data.logoUrl} alt={name ? `${name} logo` : 'Logo'} height={48} />}
          {name && <strong>{name}</strong>}
        </p>
      )}
      <h1>{name ? `Sign in to download from ${name}` : 'Sign in to download'}</h1>
      <p>Use the API key {name ?? 'your vendor'} gave you, or open the download link they sent you.</p>
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
